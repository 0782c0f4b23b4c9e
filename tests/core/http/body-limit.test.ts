import { connect } from 'node:net'
import test from 'ava'
import { createApp, type Application } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

const MB = 1024 * 1024

async function uploadApp(t: { teardown(fn: () => unknown): void }): Promise<{ app: Application; port: number }> {
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' }, config: { http: { body_limit: MB } } })
  t.teardown(() => app.close())
  app.router.post('/upload', ({ request }) => ({ fields: Object.keys(request.body()), files: Object.keys(request.parsed.files) }))
  app.router.post('/big', ({ request }) => ({ size: request.file('f')?.size ?? 0 })).bodyLimit(3 * MB)
  const server = await app.listen({ port: 0 })
  return { app, port: server.port }
}

interface RawResult {
  status: number
  body: string
  /** Bytes the client had written when the server closed the connection. */
  sentBeforeClose: number
}

/**
 * Sends `total` bytes of body over a raw socket, as fast as the server reads
 * them, chunked or with a Content-Length; resolves when the server closes.
 */
function rawUpload(port: number, contentType: string, total: number, framing: 'chunked' | 'length'): Promise<RawResult> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const chunk = Buffer.alloc(64 * 1024, 'a')
    let response = ''
    let sent = 0
    socket.on('connect', () => {
      const length = framing === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${total}`
      socket.write(`POST /upload HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\nContent-Type: ${contentType}\r\n${length}\r\n\r\n`)
      socket.write(framing === 'chunked' ? frame(Buffer.from('--xyz\r\nContent-Disposition: form-data; name="f"; filename="a.bin"\r\n\r\n')) : '')
      const pump = () => {
        while (sent < total && !socket.destroyed) {
          sent += chunk.length
          if (!socket.write(framing === 'chunked' ? frame(chunk) : chunk)) return void socket.once('drain', pump)
        }
        if (framing === 'chunked' && !socket.destroyed) socket.write('0\r\n\r\n')
      }
      pump()
    })
    socket.on('data', (data) => (response += data))
    socket.on('error', () => {})
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0)
      resolve({ status, body: response.slice(response.indexOf('\r\n\r\n') + 4), sentBeforeClose: sent })
    })
    socket.setTimeout(30_000, () => reject(new Error('the server neither answered nor closed the connection')))
  })
}

function frame(data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')])
}

function decodeChunked(body: string): string {
  const match = /^[0-9a-f]+\r\n([\s\S]*?)\r\n/.exec(body)
  return match ? match[1]! : body
}

test.serial('a 50 MB chunked multipart upload is refused with 413 while it streams: the socket is not read to the end and memory stays flat', async (t) => {
  const { port } = await uploadApp(t)
  global.gc?.()
  const before = process.memoryUsage().rss
  const result = await rawUpload(port, 'multipart/form-data; boundary=xyz', 50 * MB, 'chunked')
  const growth = process.memoryUsage().rss - before
  t.is(result.status, 413)
  t.deepEqual(JSON.parse(decodeChunked(result.body)), { message: `The request body is larger than ${MB} bytes.` })
  t.true(result.sentBeforeClose < 50 * MB, `the server read the whole body (${result.sentBeforeClose} bytes) before answering`)
  t.true(growth < 20 * MB, `RSS grew by ${(growth / MB).toFixed(1)} MB`)
})

for (const type of ['application/json', 'application/x-www-form-urlencoded', 'text/plain', 'application/octet-stream']) {
  for (const framing of ['chunked', 'length'] as const) {
    test(`${type}, ${framing === 'chunked' ? 'chunked' : 'with Content-Length'}: over the limit is 413 JSON before the body is read to the end`, async (t) => {
      const { port } = await uploadApp(t)
      const result = await rawUpload(port, type, 20 * MB, framing)
      t.is(result.status, 413)
      t.regex(result.body, /The request body is larger than 1048576 bytes\./)
      t.true(result.sentBeforeClose < 20 * MB)
    })
  }
}

test('a multipart form under the limit is parsed; a route can raise its own limit', async (t) => {
  const { app, port } = await uploadApp(t)
  const form = new FormData()
  form.append('title', 'hello')
  form.append('f', new Blob([Buffer.alloc(2 * MB)]), 'two.bin')
  const refused = await app.request('/upload', { method: 'POST', body: form, headers: { accept: 'application/json' } })
  t.is(refused.status, 413)
  const small = new FormData()
  small.append('title', 'hello')
  small.append('f', new Blob([Buffer.alloc(1000)]), 'a.bin')
  const res = await fetch(`http://127.0.0.1:${port}/upload`, { method: 'POST', body: small, headers: { accept: 'application/json' } })
  t.deepEqual(await res.json(), { fields: ['title'], files: ['f'] })
  const big = await fetch(`http://127.0.0.1:${port}/big`, { method: 'POST', body: form, headers: { accept: 'application/json' } })
  t.deepEqual(await big.json(), { size: 2 * MB })
})

test('Content-Length together with Transfer-Encoding is refused with 400', async (t) => {
  const { app } = await uploadApp(t)
  const res = await app.request('/upload', {
    method: 'POST',
    body: '{}',
    headers: { 'content-type': 'application/json', 'content-length': '2', 'transfer-encoding': 'chunked' },
  })
  t.is(res.status, 400)
  t.regex((await res.json()).message, /Content-Length and Transfer-Encoding/)
})

/** Sends a request head and body pieces over a raw socket, a pause between pieces; resolves with the whole answer. */
function rawPieces(port: number, head: string, pieces: Buffer[], end = true): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', async () => {
      socket.write(head)
      for (const piece of pieces) {
        socket.write(piece)
        await new Promise((r) => setTimeout(r, 20))
      }
      if (!end) socket.destroy()
    })
    let answer = ''
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')))
    socket.on('close', () => resolve(answer))
    socket.on('error', reject)
  })
}

test('JSON and form bodies arriving in pieces over a real socket are parsed whole, a character split across two pieces included', async (t) => {
  const { port } = await uploadApp(t)
  const json = Buffer.from(JSON.stringify({ name: 'Zoë ✓', tags: ['a'] }))
  const split = json.indexOf(Buffer.from('✓')) + 1
  const chunked = [json.subarray(0, split), json.subarray(split)].map((part) =>
    Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]),
  )
  const answer = await rawPieces(
    port,
    'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n',
    [...chunked, Buffer.from('0\r\n\r\n')],
  )
  t.regex(answer, /^HTTP\/1\.1 200/)
  t.regex(answer, /\{"fields":\["name","tags"\],"files":\[\]\}/)
  const form = Buffer.from('title=hello&tags[]=a&tags[]=b')
  const formAnswer = await rawPieces(
    port,
    `POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form.length}\r\nConnection: close\r\n\r\n`,
    [form.subarray(0, 7), form.subarray(7)],
  )
  t.regex(formAnswer, /\{"fields":\["title","tags"\],"files":\[\]\}/)
})

test('a client that goes away halfway through a JSON body leaves the server serving: no hang, no crash', async (t) => {
  const { port } = await uploadApp(t)
  await rawPieces(port, 'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n', [Buffer.from('{"a":')], false)
  const res = await fetch(`http://127.0.0.1:${port}/upload`, { method: 'POST', body: '{"b":1}', headers: { 'content-type': 'application/json' } })
  t.deepEqual(await res.json(), { fields: ['b'], files: [] })
})

test('a body that hides a forbidden key behind a \\u escape is refused like a plain one', async (t) => {
  const { port } = await uploadApp(t)
  for (const body of ['{"__proto__":{"x":1}}', '{"a":{"\\u005f_proto__":{"x":1}}}', '{"constructor":{"prototype":{}}}']) {
    const res = await fetch(`http://127.0.0.1:${port}/upload`, { method: 'POST', body, headers: { 'content-type': 'application/json' } })
    t.is(res.status, 400, body)
    t.regex((await res.json()).message, /is not allowed in a request body/)
  }
  const fine = await fetch(`http://127.0.0.1:${port}/upload`, {
    method: 'POST',
    body: '{"note":"the constructor of a prototype"}',
    headers: { 'content-type': 'application/json' },
  })
  t.deepEqual(await fine.json(), { fields: ['note'], files: [] })
})

/** Sends headers and then body bytes as fast as the server takes them, and reads nothing for the first 300 ms. */
function lateReader(port: number, contentType: string, framing: 'chunked' | 'length'): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    let response = ''
    socket.on('connect', () => {
      const length = framing === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${50 * MB}`
      socket.write(`POST /upload HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\nContent-Type: ${contentType}\r\n${length}\r\n\r\n`)
      socket.pause()
      const raw = Buffer.alloc(64 * 1024, 'a')
      const chunk = framing === 'chunked' ? frame(raw) : raw
      let sent = 0
      const pump = () => {
        while (sent < 50 * MB && !socket.destroyed) {
          sent += raw.length
          if (!socket.write(chunk)) return void socket.once('drain', pump)
        }
      }
      pump()
      setTimeout(() => socket.resume(), 300)
    })
    socket.on('data', (data) => (response += data))
    socket.on('error', (error) => (response += `[${error.message}]`))
    socket.on('close', () => resolve(response))
  })
}

for (const type of ['multipart/form-data; boundary=xyz', 'application/json']) {
  for (const framing of ['chunked', 'length'] as const) {
    test(`${type.split(';')[0]}, ${framing === 'chunked' ? 'chunked' : 'with Content-Length'}: a client that reads the 413 late still gets it (the close does not reset the connection under it)`, async (t) => {
      const { port } = await uploadApp(t)
      t.regex(await lateReader(port, type, framing), /^HTTP\/1\.1 413 /)
    })
  }
}
