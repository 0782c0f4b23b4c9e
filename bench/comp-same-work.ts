/**
 * P4's baseline (issue 25): bare h3 on srvx doing by hand, with the same
 * libraries and primitives, the work Kiln's `POST /comp/update` does for a
 * browser's counter update. Nothing is cached between requests that Kiln
 * would have to compute (the cookie is opened, the session file read, every
 * HMAC worked out, on every request). Per update, in order:
 *
 *  1. refuse a body over the update's limit (`content-length`);
 *  2. parse the `Cookie` header (cookie-es);
 *  3. open the session cookie: AES-256-GCM, Kiln's format (version, IV, tag,
 *     ciphertext, base64url) bound to the cookie's name; `id.expiresAt` inside;
 *  4. read the session from its file (one `readFile` of `<dir>/<id>`, JSON),
 *     refuse an ended or expired one;
 *  5. check the `X-CSRF-TOKEN` header against the session's token (constant time);
 *  6. check the signed address: one signature, `expires` not past, HMAC-SHA256
 *     over the path and the sorted query (constant time);
 *  7. parse the JSON body and check its shape (fingerprint, memo, updates, calls);
 *  8. check the snapshot: its nesting depth, then its checksum (canonical JSON
 *     + HMAC-SHA256, constant time); its session tag (HMAC of the session id)
 *     against this session, its lifetime, and the address's session tag;
 *  9. restore the state and run the call (`increment`, the only method allowed);
 * 10. render the counter's template with Handlebars (compiled once) and put
 *     `wire:id` and `wire:name` on its root element;
 * 11. the new snapshot (data, errors, session tag, expiry) and its checksum;
 *     the properties that changed against the browser's memo;
 * 12. a freshly signed address (random `n`, the session tag, `expires`);
 * 13. write the session back only when Kiln would (its expiry is a minute
 *     old or more), sending the cookies again then;
 * 14. answer the same JSON as Kiln (`effects` and `serverMemo`).
 *
 * `GET /` is the first visit (not measured): a new session in its file, the
 * sealed cookie, `XSRF-TOKEN`, and a page with the snapshot and the address
 * as Kiln's page carries them, so `counterVisit()` reads either.
 */
import { createCipheriv, createDecipheriv, createHmac, createSecretKey, randomBytes, randomUUID, timingSafeEqual, type KeyObject } from 'node:crypto'
import { mkdirSync, mkdtempSync } from 'node:fs'
import { readFile, rename, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse as parseCookies, serialize as serializeCookie } from 'cookie-es'
import Handlebars from 'handlebars'
import { H3, HTTPError, type H3Event } from 'h3'
import { serve, type Server } from 'srvx'

const COUNTER_VIEW = '<section class="counter"><p>{{count}}</p><button wire:click="increment">+</button></section>'
const LIFETIME_MS = 120 * 60_000
const SNAPSHOT_TTL_MS = 720 * 60_000
const MAX_BODY = 1024 * 1024
const COOKIE = 'kiln_session'

interface StoredSession {
  data: { _token?: string }
  expires_at: number
  destroyed?: true
}

/** A listening bare h3 app doing the update's work by hand; `close()` stops it. */
export async function sameWorkServer(): Promise<{ url: string; server: Server }> {
  const appKey = randomBytes(32)
  const derive = (purpose: string) => createSecretKey(createHmac('sha256', appKey).update(purpose).digest())
  const cookieKey = createSecretKey(appKey)
  const urlKey = derive('url-signing')
  const checksumKey = derive('comp:checksum')
  const sessionKey = derive('comp:session')
  const dir = mkdtempSync(join(tmpdir(), 'kiln-same-work-'))
  mkdirSync(dir, { recursive: true })
  const counter = Handlebars.create().compile(COUNTER_VIEW)

  const hmac = (key: KeyObject, text: string) => createHmac('sha256', key).update(text).digest('hex')
  const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))
  const tagOf = (id: string) => createHmac('sha256', sessionKey).update(id).digest('base64url').slice(0, 22)
  const seal = (plain: string) => {
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', cookieKey, iv)
    cipher.setAAD(Buffer.from(`cookie:${COOKIE}`))
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
    return Buffer.concat([Buffer.from([1]), iv, cipher.getAuthTag(), body]).toString('base64url')
  }
  const open = (sealed: string | undefined) => {
    if (!sealed || sealed.length < 40 || sealed.length > 16384) return undefined
    const bytes = Buffer.from(sealed, 'base64url')
    if (bytes.length < 29 || bytes[0] !== 1) return undefined
    try {
      const decipher = createDecipheriv('aes-256-gcm', cookieKey, bytes.subarray(1, 13))
      decipher.setAAD(Buffer.from(`cookie:${COOKIE}`))
      decipher.setAuthTag(bytes.subarray(13, 29))
      return Buffer.concat([decipher.update(bytes.subarray(29)), decipher.final()]).toString('utf8')
    } catch {
      return undefined
    }
  }
  const sign = (path: string, params: Record<string, string>) => {
    const query = new URLSearchParams({ ...params, expires: String(Math.floor((Date.now() + SNAPSHOT_TTL_MS) / 1000)) })
    query.sort()
    query.set('signature', hmac(urlKey, `${path}?${query.toString()}`))
    return `${path}?${query.toString()}`
  }
  const sealMemo = (fingerprint: { id: string; name: string }, memo: Record<string, unknown>) => ({
    ...memo,
    checksum: hmac(checksumKey, `{"fingerprint":${canonical(fingerprint)},"memo":${canonical(memo)}}`),
  })
  const cookies = (event: H3Event, id: string, expiresAt: number, token: string) => {
    const maxAge = LIFETIME_MS / 1000
    event.res.headers.append('set-cookie', serializeCookie(COOKIE, seal(`${id}.${expiresAt}`), { path: '/', httpOnly: true, sameSite: 'lax', maxAge }))
    event.res.headers.append('set-cookie', serializeCookie('XSRF-TOKEN', token, { path: '/', sameSite: 'lax', maxAge }))
  }
  const save = async (id: string, record: StoredSession) => {
    const temp = `${join(dir, id)}.${randomBytes(6).toString('hex')}.tmp`
    await writeFile(temp, JSON.stringify(record))
    await rename(temp, join(dir, id))
  }
  const refuse = (status: number, message: string) => new HTTPError({ status, message })

  // Silent: autocannon closes its sockets mid-request when a run ends, and h3 would log each aborted body read.
  const app = new H3({ silent: true })
    .get('/', async (event) => {
      const id = randomBytes(30).toString('base64url').replace(/[-_]/g, 'x').slice(0, 40)
      const token = randomBytes(20).toString('hex')
      const expiresAt = Date.now() + LIFETIME_MS
      await save(id, { data: { _token: token }, expires_at: expiresAt })
      cookies(event, id, expiresAt, token)
      const fingerprint = { id: randomBytes(15).toString('base64url'), name: 'counter' }
      const tag = tagOf(id)
      const memo = sealMemo(fingerprint, { data: { count: 0 }, errors: {}, session: tag, expires: Date.now() + SNAPSHOT_TTL_MS })
      const snapshot = attribute(JSON.stringify({ fingerprint, serverMemo: memo }))
      const endpoint = attribute(sign('/comp/update', { n: randomUUID().slice(0, 13).replace('-', ''), s: tag }))
      const html = counter({ count: 0 }).replace('<section', `<section wire:snapshot="${snapshot}"`)
      return new Response(`<!doctype html><html><head><meta name="comp-endpoint" content="${endpoint}"></head><body>${html}</body></html>`, {
        headers: { 'content-type': 'text/html; charset=utf-8' },
      })
    })
    .post('/comp/update', async (event) => {
      // 1-2. The body's size, the cookies.
      if (Number(event.req.headers.get('content-length') ?? MAX_BODY + 1) > MAX_BODY) throw refuse(413, 'Payload too large.')
      const jar = parseCookies(event.req.headers.get('cookie') ?? '')
      // 3. The session cookie, opened.
      const named = /^([A-Za-z0-9]{40})\.([0-9]{1,15})$/.exec(open(jar[COOKIE]) ?? '')
      if (!named) throw refuse(419, 'Session expired.')
      const id = named[1]!
      // 4. The session, from its file.
      const stored = JSON.parse(await readFile(join(dir, id), 'utf8').catch(() => 'null')) as StoredSession | null
      if (!stored || stored.destroyed || stored.expires_at <= Date.now()) throw refuse(419, 'Session expired.')
      // 5. CSRF.
      const token = stored.data._token
      if (!token || !same(event.req.headers.get('x-csrf-token') ?? '', token)) throw refuse(419, 'CSRF token mismatch.')
      // 6. The signed address.
      const url = new URL(event.req.url)
      const query = new URLSearchParams(url.search)
      const signature = query.getAll('signature')
      query.delete('signature')
      query.sort()
      const expires = query.get('expires')
      if (signature.length !== 1 || !/^[a-f0-9]{64}$/.test(signature[0]!)) throw refuse(403, 'Invalid signature.')
      if (!expires || !/^\d{1,12}$/.test(expires) || Number(expires) < Date.now() / 1000) throw refuse(403, 'Invalid signature.')
      if (!same(hmac(urlKey, `${url.pathname}?${query.toString()}`), signature[0]!)) throw refuse(403, 'Invalid signature.')
      // 7. The body.
      const body = (await event.req.json()) as UpdateBody
      if (!isUpdateBody(body)) throw refuse(422, 'Malformed update.')
      const { fingerprint, serverMemo: memo } = body
      // 8. The snapshot: nesting, checksum, session, lifetime; the address's session.
      if (depth(memo, 0) > 12) throw refuse(403, 'Tampered snapshot.')
      const { checksum, ...unsigned } = memo
      if (typeof checksum !== 'string' || !same(hmac(checksumKey, `{"fingerprint":${canonical(fingerprint)},"memo":${canonical(unsigned)}}`), checksum))
        throw refuse(403, 'Tampered snapshot.')
      const tag = tagOf(id)
      if (!same(String(memo.session), tag) || !(typeof memo.expires === 'number' && memo.expires > Date.now()) || !same(query.get('s') ?? '', tag))
        throw refuse(419, 'This page is out of date.')
      // 9. The state and the call.
      const data = memo.data as { count: number }
      const state = { count: typeof data.count === 'number' ? data.count : 0 }
      for (const call of body.calls) {
        if (call.method !== 'increment') throw refuse(404, 'No such method.')
        state.count++
      }
      // 10. The render.
      const html = counter(state).replace(/^<([a-z][\w-]*)/, `<$1 wire:id="${attribute(fingerprint.id)}" wire:name="${attribute(fingerprint.name)}"`)
      // 11. The new snapshot, and what changed.
      const serverMemo = sealMemo(fingerprint, { data: state, errors: {}, session: tag, expires: Date.now() + SNAPSHOT_TTL_MS })
      const dirty: Record<string, unknown> = {}
      for (const [key, value] of Object.entries(state)) if (JSON.stringify(value) !== JSON.stringify((data as Record<string, unknown>)[key])) dirty[key] = value
      // 12. A fresh address.
      const endpoint = sign('/comp/update', { n: randomUUID().slice(0, 13).replace('-', ''), s: tag })
      // 13. The session, written back when Kiln would: once its expiry is a minute old.
      const expiresAt = Date.now() + LIFETIME_MS
      if (expiresAt - stored.expires_at >= 60_000) {
        await save(id, { ...stored, expires_at: expiresAt })
        cookies(event, id, expiresAt, token)
      }
      // 14. The answer.
      return { effects: { html, data: dirty, errors: {}, dispatches: [], endpoint }, serverMemo }
    })
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1', silent: true })
  await server.ready()
  return { url: new URL(server.url!).origin, server }
}

interface UpdateBody {
  fingerprint: { id: string; name: string }
  serverMemo: Record<string, unknown> & { data: Record<string, unknown> }
  updates: unknown[]
  calls: Array<{ method: string; params: unknown[] }>
}

function isUpdateBody(body: unknown): body is UpdateBody {
  const b = body as UpdateBody | null
  return (
    typeof b === 'object' &&
    b !== null &&
    typeof b.fingerprint?.id === 'string' &&
    b.fingerprint.name === 'counter' &&
    typeof b.serverMemo === 'object' &&
    b.serverMemo !== null &&
    typeof b.serverMemo.data === 'object' &&
    Array.isArray(b.updates) &&
    b.updates.length === 0 &&
    Array.isArray(b.calls) &&
    b.calls.every((call) => typeof call?.method === 'string' && Array.isArray(call.params))
  )
}

/** Text for a double-quoted HTML attribute. */
function attribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** How deep a JSON value nests. */
function depth(value: unknown, level: number): number {
  if (value === null || typeof value !== 'object') return level
  let deepest = level + 1
  for (const item of Object.values(value)) deepest = Math.max(deepest, depth(item, level + 1))
  return deepest
}

/** JSON with object keys sorted at every depth, as a checksum needs. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  const record = value as Record<string, unknown>
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`).join(',')}}`
}
