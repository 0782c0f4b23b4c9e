import { connect } from 'node:net'
import test from 'ava'
import { forkStarter } from '../fixtures/fork-starter.ts'

const TOTAL = 10_000
const CONCURRENCY = 16
const MB = 1024 * 1024

/** A small deterministic PRNG, so a failure reproduces from its seed. */
function prng(seed: number): () => number {
  let s = seed >>> 0
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32
}

interface Mutant {
  method: string
  path: string
  headers: Record<string, string>
  body?: Buffer
  /** Sent over a raw socket with chunked framing (and sometimes broken framing). */
  chunked: boolean
}

const ROUTES = [
  '/',
  '/login',
  '/logout',
  '/live',
  '/live/messages',
  '/health',
  '/tok/token',
  '/user',
  '/tok/csrf-cookie',
  '/broadcasting/auth',
  '/broadcasting/user-auth',
  '/broadcasting/rt.js',
  '/nope',
]
const IDS = [
  '1',
  '0',
  '-1',
  '2147483647',
  '2147483648',
  '99999999999',
  '9223372036854775807',
  '9223372036854775808',
  '1e3',
  '0x10',
  '1.5',
  'NaN',
  '',
  ' 1',
  '１',
  '%00',
  "1' OR '1'='1",
]
const JUNK = [
  '{',
  '}',
  '[',
  ']',
  '"',
  ':',
  ',',
  '=',
  '&',
  '%',
  '%zz',
  '__proto__',
  'constructor',
  'prototype',
  '\\u0000',
  'a',
  '1',
  ' ',
  '\n',
  'é',
  '😀',
  ';',
  'null',
  'true',
  '[]',
  '--',
  '\r\n',
  '|',
  '.',
]
const TYPES = [
  'application/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'multipart/form-data',
  'text/plain',
  '',
  'application/json; charset=utf-16',
  'application/octet-stream',
  'text/html',
]

function generator(seed: number) {
  const random = prng(seed)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
  const junk = (n: number) => Array.from({ length: Math.floor(random() * n) }, () => pick(JUNK)).join('')
  const latin1 = (s: string) => s.replace(/[^\x20-\x7e]/g, '')
  const id = () => pick(IDS)

  const jsonBody = (): string => {
    const fields: Record<string, unknown> = {
      email: pick(['test@example.com', 'nobody@example.com', junk(6), 'a'.repeat(Math.floor(random() * 5000))]),
      password: pick(['password', 'wrong', '', junk(4)]),
      device_name: pick(['cli', '', junk(5)]),
      abilities: pick([['*'], [], 'x', [junk(3)], null]),
      socket_id: pick([`${id()}.${id()}`, junk(4), '123.456']),
      channel_name: pick([`private-orders.${id()}`, `private-app.models.User.${id()}`, 'presence-chat', `private-encrypted-${junk(3)}`, junk(5)]),
      body: junk(10),
    }
    const keys = Object.keys(fields).filter(() => random() < 0.6)
    const picked = Object.fromEntries(keys.map((k) => [k, fields[k]]))
    const text = JSON.stringify(picked)
    // Mutate the serialised text: cut it, or splice junk into it.
    if (random() < 0.3) return text.slice(0, Math.floor(random() * text.length))
    if (random() < 0.3) {
      const at = Math.floor(random() * text.length)
      return text.slice(0, at) + junk(4) + text.slice(at)
    }
    return text
  }
  const formBody = () =>
    Array.from(
      { length: 1 + Math.floor(random() * 5) },
      () => `${pick(['email', 'password', 'x[]', '__proto__', 'a[b]', junk(3)])}=${encodeURIComponent(junk(6))}`,
    ).join('&')
  const multipartBody = () =>
    `--xyz\r\nContent-Disposition: form-data; name="${pick(['email', 'file', '__proto__', junk(3)])}"${random() < 0.5 ? '; filename="a.txt"' : ''}\r\n\r\n${junk(20)}\r\n${random() < 0.7 ? '--xyz--\r\n' : ''}`

  return (): Mutant => {
    let path = pick(ROUTES)
    if (random() < 0.2) path += `?${latin1(junk(8)).replace(/[\s#]/g, '')}`
    if (random() < 0.05) path = `/${latin1(junk(4)).replace(/[\s?#]/g, '')}`
    const method = random() < 0.6 ? 'POST' : pick(['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])
    const type = pick(TYPES)
    const headers: Record<string, string> = { accept: pick(['application/json', 'text/html', '*/*', '']) }
    if (type) headers['content-type'] = type
    if (random() < 0.5)
      headers.authorization = pick([
        `Bearer ${id()}|${latin1(junk(12))}`,
        `Bearer ${id()}|${'a'.repeat(48)}`,
        'Bearer',
        `Basic ${latin1(junk(5))}`,
        `Bearer ${latin1(junk(30))}`,
      ])
    if (random() < 0.4) headers.cookie = latin1(pick([`kiln_session=${junk(20)}`, `XSRF-TOKEN=${junk(10)}`, junk(12)]))
    if (random() < 0.3) headers['x-xsrf-token'] = latin1(junk(8))
    if (random() < 0.2) headers['x-csrf-token'] = latin1(junk(8))
    if (random() < 0.2) headers['x-socket-id'] = `${id()}.${id()}`
    if (random() < 0.2) headers.origin = pick(['http://localhost:3000', 'http://evil.example', 'null'])
    if (random() < 0.2) headers.referer = pick(['http://localhost:3000/', 'http://evil.example/'])
    const hasBody = method !== 'GET' && method !== 'HEAD' && random() < 0.9
    const body = hasBody
      ? Buffer.from(type.startsWith('multipart') ? multipartBody() : type.includes('urlencoded') ? formBody() : random() < 0.9 ? jsonBody() : junk(30))
      : undefined
    return { method, path, headers, body, chunked: hasBody && random() < 0.15 }
  }
}

/** One request over a raw socket with chunked framing; a truncated body makes the server wait, so `broken` ends the socket instead. */
function sendChunked(port: number, mutant: Mutant, broken: boolean): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    let response = ''
    const headers = Object.entries({ ...mutant.headers, host: 'localhost', 'transfer-encoding': 'chunked', connection: 'close' }).map(([k, v]) => `${k}: ${v}`)
    socket.on('connect', () => {
      socket.write(`${mutant.method} ${mutant.path} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`)
      const body = mutant.body ?? Buffer.alloc(0)
      const half = Math.floor(body.length / 2)
      for (const part of [body.subarray(0, half), body.subarray(half)])
        if (part.length > 0) socket.write(Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]))
      if (broken) socket.end('zz\r\n')
      else socket.write('0\r\n\r\n')
    })
    socket.on('data', (data) => (response += data))
    socket.on('error', () => {})
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0)))
    socket.setTimeout(15_000, () => {
      socket.destroy()
      resolve(-1)
    })
  })
}

test('fuzz: 10,000 mutated requests to the starter app (headers, bodies, chunking, content types, ids) give no 5xx, no hang, and RSS grows less than 50 MB', async (t) => {
  // The server runs in its own process, so its RSS is measured without this test's client.
  const server = await forkStarter(t)
  const next = generator(20261123)
  const failures: string[] = []

  const fire = async (mutant: Mutant): Promise<void> => {
    let status: number
    if (mutant.chunked) status = await sendChunked(server.port, mutant, Math.random() < 0.2)
    else {
      const res = await fetch(`${server.url}${mutant.path}`, {
        method: mutant.method,
        headers: mutant.headers,
        body: mutant.body as Uint8Array<ArrayBuffer> | undefined,
        redirect: 'manual',
      }).catch((error: Error) => ({ status: -2, error }))
      status = res.status
      if ('arrayBuffer' in res) await res.arrayBuffer()
    }
    if (status >= 500 || status === -1)
      failures.push(`${status} ${mutant.method} ${mutant.path} ${JSON.stringify(mutant.headers)} ${mutant.body?.toString('utf8').slice(0, 200) ?? ''}`)
  }
  const run = async (count: number) => {
    let left = count
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (left-- > 0) await fire(next())
      }),
    )
  }

  // A first thousand warms caches, pools and JIT; the rest must not grow the process.
  await run(1000)
  const before = await server.rss()
  await run(TOTAL - 1000)
  const growth = (await server.rss()) - before

  t.deepEqual(failures.slice(0, 10), [], `${failures.length} requests failed`)
  t.true(growth < 50 * MB, `RSS grew by ${(growth / MB).toFixed(1)} MB`)
})
