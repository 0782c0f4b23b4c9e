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
  const res = await app.request('/upload', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json', 'content-length': '2', 'transfer-encoding': 'chunked' } })
  t.is(res.status, 400)
  t.regex((await res.json()).message, /Content-Length and Transfer-Encoding/)
})
