import { request as httpRequest, type IncomingMessage } from 'node:http'
import { PassThrough } from 'node:stream'
import { brotliDecompressSync, createBrotliDecompress, createGunzip, gunzipSync } from 'node:zlib'
import test from 'ava'
import { createApp, uncompressed } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

// Text that compresses well, over the default 1 KB threshold.
const SCRIPT = `window.items = [${Array.from({ length: 200 }, (_, i) => `'item-${i}'`).join(', ')}]\n`
const PAGE = `<!doctype html><title>Big</title><ul>${Array.from({ length: 200 }, (_, i) => `<li>row ${i}</li>`).join('')}</ul>`
const ROWS = Array.from({ length: 100 }, (_, i) => ({ id: i, name: `user ${i}` }))
const PNG = `\x89PNG${'x'.repeat(4000)}`

async function compressionApp(t: { teardown(fn: () => unknown): void }, config: Record<string, unknown> = {}) {
  const root = tempApp({
    'dist/app.js': SCRIPT,
    'dist/tiny.js': 'x()\n',
    'public/big.css': `body { margin: 0 }\n${'.a { color: red }\n'.repeat(100)}`,
    'public/image.png': PNG,
  })
  const app = await createApp({ root, env: { APP_ENV: 'test' }, config })
  t.teardown(() => app.close())
  app.assets.file('/app.js', 'dist/app.js')
  app.assets.file('/tiny.js', 'dist/tiny.js')
  app.router.get('/page', () => PAGE)
  app.router.get('/rows', () => ({ rows: ROWS }))
  app.router.get('/small', () => ({ ok: true }))
  app.router.get('/tagged', (ctx) => {
    ctx.response.headers.set('etag', '"v1"')
    return PAGE
  })
  app.router.get('/encoded', () => new Response(gunzipSafe(PAGE), { headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' } }))
  return app
}

function gunzipSafe(text: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(text)) as Uint8Array<ArrayBuffer>
}

function decode(body: Buffer, encoding: string | null): string {
  if (encoding === 'br') return brotliDecompressSync(body).toString()
  if (encoding === 'gzip') return gunzipSync(body).toString()
  return body.toString()
}

async function bytes(res: Response): Promise<Buffer> {
  return Buffer.from(await res.arrayBuffer())
}

test('HTML and JSON over the threshold: brotli or gzip as accepted, a correct Content-Length, Vary, the same bytes once decoded', async (t) => {
  const app = await compressionApp(t)
  for (const [accept, expected] of [
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0.5, br;q=0.4', 'gzip'],
    ['*', 'br'],
  ] as const) {
    for (const [path, identity] of [
      ['/page', PAGE],
      ['/rows', JSON.stringify({ rows: ROWS })],
    ] as const) {
      const res = await app.request(path, { headers: { 'accept-encoding': accept } })
      t.is(res.status, 200)
      t.is(res.headers.get('content-encoding'), expected, `${path} ${accept}`)
      t.regex(res.headers.get('vary') ?? '', /accept-encoding/i)
      const body = await bytes(res)
      t.is(res.headers.get('content-length'), String(body.byteLength))
      t.true(body.byteLength < Buffer.byteLength(identity))
      t.is(decode(body, expected), identity)
    }
  }
})

test('a body known whole keeps its Content-Length when headers are set on the event (as CORS does)', async (t) => {
  const app = await compressionApp(t)
  app.router.get('/cors-like', (ctx) => {
    ctx.event.res.headers.set('access-control-allow-origin', '*')
    return PAGE
  })
  const res = await app.request('/cors-like', { headers: { 'accept-encoding': 'gzip' } })
  t.is(res.headers.get('access-control-allow-origin'), '*')
  t.is(res.headers.get('content-encoding'), 'gzip')
  const body = await bytes(res)
  t.is(res.headers.get('content-length'), String(body.byteLength))
  t.is(decode(body, 'gzip'), PAGE)
})

test('no Accept-Encoding, only refused codings, or under the threshold: sent as it is', async (t) => {
  const app = await compressionApp(t)
  const cases: Record<string, string>[] = [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'gzip;q=0, br;q=0' }, { 'accept-encoding': 'deflate' }]
  for (const headers of cases) {
    const res = await app.request('/page', { headers })
    t.is(res.headers.get('content-encoding'), null, JSON.stringify(headers))
    t.is(await res.text(), PAGE)
  }
  const small = await app.request('/small', { headers: { 'accept-encoding': 'br, gzip' } })
  t.is(small.headers.get('content-encoding'), null)
  t.deepEqual(await small.json(), { ok: true })
})

test('http.compression: a lower threshold compresses small bodies; enabled false turns every kind off', async (t) => {
  const low = await compressionApp(t, { http: { compression: { threshold: 5 } } })
  const small = await low.request('/small', { headers: { 'accept-encoding': 'gzip' } })
  t.is(small.headers.get('content-encoding'), 'gzip')
  t.is(decode(await bytes(small), 'gzip'), '{"ok":true}')

  const off = await compressionApp(t, { http: { compression: { enabled: false } } })
  for (const path of ['/page', '/rows', '/app.js', '/big.css']) {
    const res = await off.request(path, { headers: { 'accept-encoding': 'br, gzip' } })
    t.is(res.status, 200)
    t.is(res.headers.get('content-encoding'), null, path)
  }
})

test('a response that already has a Content-Encoding, or is marked uncompressed, is left alone; a strong ETag becomes weak', async (t) => {
  const app = await compressionApp(t)
  app.router.get('/as-is', () => uncompressed(new Response(PAGE, { headers: { 'content-type': 'text/html' } })))
  const encoded = await app.request('/encoded', { headers: { 'accept-encoding': 'br, gzip' } })
  t.is(encoded.headers.get('content-encoding'), 'gzip')
  t.is((await bytes(encoded)).toString(), PAGE)
  const asIs = await app.request('/as-is', { headers: { 'accept-encoding': 'br, gzip' } })
  t.is(asIs.headers.get('content-encoding'), null)
  t.is(await asIs.text(), PAGE)
  const tagged = await app.request('/tagged', { headers: { 'accept-encoding': 'br' } })
  t.is(tagged.headers.get('content-encoding'), 'br')
  t.is(tagged.headers.get('etag'), 'W/"v1"')
})

test('static assets: pre-compressed per coding with their own ETag, 304 per coding, HEAD with the encoded length, Range gets the plain file', async (t) => {
  const app = await compressionApp(t)
  const plain = await app.request('/app.js')
  const identityTag = plain.headers.get('etag')!
  t.is(plain.headers.get('content-encoding'), null)
  t.regex(plain.headers.get('vary') ?? '', /accept-encoding/i)
  t.is(await plain.text(), SCRIPT)

  const tags = new Set([identityTag])
  for (const encoding of ['br', 'gzip']) {
    const res = await app.request('/app.js', { headers: { 'accept-encoding': encoding } })
    t.is(res.status, 200)
    t.is(res.headers.get('content-encoding'), encoding)
    t.regex(res.headers.get('content-type')!, /javascript/)
    t.regex(res.headers.get('vary') ?? '', /accept-encoding/i)
    const body = await bytes(res)
    t.is(res.headers.get('content-length'), String(body.byteLength))
    t.is(decode(body, encoding), SCRIPT)
    const etag = res.headers.get('etag')!
    tags.add(etag)
    const again = await app.request('/app.js', { headers: { 'accept-encoding': encoding, 'if-none-match': etag } })
    t.is(again.status, 304)
    t.is(again.headers.get('etag'), etag)
    const head = await app.request('/app.js', { method: 'HEAD', headers: { 'accept-encoding': encoding } })
    t.is(head.headers.get('content-encoding'), encoding)
    t.is(head.headers.get('content-length'), String(body.byteLength))
    t.is(await head.text(), '')
  }
  t.is(tags.size, 3, 'one ETag per coding')

  const ranged = await app.request('/app.js', { headers: { 'accept-encoding': 'br', range: 'bytes=0-9' } })
  t.is(ranged.headers.get('content-encoding'), null)
  t.true((await ranged.text()).startsWith(SCRIPT.slice(0, 10)))
})

test('static assets: public/ text files compressed; tiny files and images are not', async (t) => {
  const app = await compressionApp(t)
  const css = await app.request('/big.css', { headers: { 'accept-encoding': 'gzip' } })
  t.is(css.headers.get('content-encoding'), 'gzip')
  t.regex(decode(await bytes(css), 'gzip'), /^body \{ margin: 0 \}/)
  const tiny = await app.request('/tiny.js', { headers: { 'accept-encoding': 'br' } })
  t.is(tiny.headers.get('content-encoding'), null)
  t.is(await tiny.text(), 'x()\n')
  const image = await app.request('/image.png', { headers: { 'accept-encoding': 'br, gzip' } })
  t.is(image.headers.get('content-encoding'), null)
  t.is((await bytes(image)).byteLength, Buffer.byteLength(PNG))
})

interface Raw {
  res: IncomingMessage
  body: Promise<Buffer>
  /** Calls `fn` with every chunk received so far and every later one. */
  onChunk(fn: (chunk: Buffer) => void): void
}

function rawGet(url: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = []
      const listeners: ((chunk: Buffer) => void)[] = []
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk)
        for (const fn of listeners) fn(chunk)
      })
      resolve({
        res,
        body: new Promise((done) => res.on('end', () => done(Buffer.concat(chunks)))),
        onChunk(fn) {
          for (const chunk of chunks) fn(chunk)
          listeners.push(fn)
        },
      })
    })
    req.on('error', reject)
    req.end()
  })
}

test('over a real server: the bytes on the wire are compressed, and decode to the identity body', async (t) => {
  const app = await compressionApp(t)
  const server = await app.listen({ port: 0 })
  t.teardown(() => server.close())
  for (const [path, identity] of [
    ['/page', PAGE],
    ['/app.js', SCRIPT],
  ] as const) {
    for (const encoding of ['br', 'gzip']) {
      const { res, body } = await rawGet(`${server.url}${path}`, { 'accept-encoding': encoding })
      const raw = await body
      t.is(res.headers['content-encoding'], encoding, `${path} ${encoding}`)
      t.is(res.headers['content-length'], String(raw.byteLength))
      t.is(decode(raw, encoding), identity)
    }
    const { res, body } = await rawGet(`${server.url}${path}`, {})
    t.is(res.headers['content-encoding'], undefined)
    t.is((await body).toString(), identity)
  }
})

/** A route whose stream writes one chunk, then waits for the test to let it finish. */
function gatedStream(app: Awaited<ReturnType<typeof compressionApp>>, path: string, contentType: string) {
  let open!: () => void
  const gate = new Promise<void>((resolve) => (open = resolve))
  app.router.get(path, () => {
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode(`first ${'chunk '.repeat(300)}\n`))
        await gate
        controller.enqueue(new TextEncoder().encode('second\n'))
        controller.close()
      },
    })
    return new Response(body, { headers: { 'content-type': contentType } })
  })
  return { open }
}

/** Resolves with the decoded text once it contains `text`; fails after a guard so a buffered stream is a failure, not a hang. */
function untilDecoded(raw: Raw, text: string): Promise<string> {
  const encoding = raw.res.headers['content-encoding']
  const decoder = encoding === 'br' ? createBrotliDecompress() : encoding === 'gzip' ? createGunzip() : new PassThrough()
  let seen = ''
  return new Promise((resolve, reject) => {
    const guard = setTimeout(() => reject(new Error(`"${text}" did not arrive; got ${JSON.stringify(seen.slice(0, 40))}`)), 15_000)
    decoder.on('data', (chunk: Buffer) => {
      seen += chunk.toString()
      if (seen.includes(text)) {
        clearTimeout(guard)
        resolve(seen)
      }
    })
    raw.onChunk((chunk) => decoder.write(chunk))
  })
}

test('streams are never held back: an event stream is sent as is, a streamed HTML body is compressed chunk by chunk', async (t) => {
  const app = await compressionApp(t)
  const events = gatedStream(app, '/events', 'text/event-stream')
  const html = gatedStream(app, '/streamed', 'text/html; charset=utf-8')
  const server = await app.listen({ port: 0 })
  t.teardown(() => server.close())

  const sse = await rawGet(`${server.url}/events`, { 'accept-encoding': 'br, gzip' })
  t.is(sse.res.headers['content-encoding'], undefined)
  await untilDecoded(sse, 'first')
  events.open()
  t.regex((await sse.body).toString(), /second/)

  for (const encoding of ['br', 'gzip']) {
    const page = await rawGet(`${server.url}/streamed`, { 'accept-encoding': encoding })
    t.is(page.res.headers['content-encoding'], encoding)
    t.is(page.res.headers['content-length'], undefined)
    const decoded = untilDecoded(page, 'second')
    await untilDecoded(page, 'first')
    html.open()
    t.regex(await decoded, /^first (chunk )+\nsecond\n$/)
  }
})

test('a client that goes away in the middle of a compressed stream does not take the server down', async (t) => {
  const app = await compressionApp(t)
  let cancelled!: () => void
  const gone = new Promise<void>((resolve) => (cancelled = resolve))
  app.router.get('/endless', () => {
    let timer: ReturnType<typeof setInterval> | undefined
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        // Big, poorly compressible chunks keep the compressor busy, so output is still coming when the reader leaves.
        timer = setInterval(() => {
          try {
            controller.enqueue(new Uint8Array(crypto.getRandomValues(new Uint8Array(60_000))))
          } catch {
            clearInterval(timer)
          }
        }, 2)
      },
      cancel() {
        clearInterval(timer)
        cancelled()
      },
    })
    return new Response(body, { headers: { 'content-type': 'text/html' } })
  })
  const server = await app.listen({ port: 0 })
  for (const encoding of ['br', 'gzip']) {
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${server.url}/endless`, { headers: { 'accept-encoding': encoding } }, (res) => {
        t.is(res.headers['content-encoding'], encoding)
        res.once('data', () => {
          req.destroy()
          resolve()
        })
      })
      req.on('error', () => {})
      req.once('error', reject)
      req.end()
    })
  }
  await gone
  // Give a crashing compressor time to throw: an uncaught exception fails this file.
  await new Promise((resolve) => setTimeout(resolve, 300))
  const res = await fetch(`${server.url}/page`, { headers: { 'accept-encoding': 'br' } })
  t.is(res.status, 200)
})
