import { createHmac, createSecretKey, type KeyObject } from 'node:crypto'
import { pooledRandomBytes } from '../security/random-pool.ts'
import { safeEqual } from '../security/safe-compare.ts'

/**
 * The keys CSRF tokens are derived with, from `APP_KEY` then each previous
 * key: a key for this purpose only, so tokens never share key material with
 * cookie encryption or URL signatures. They are `KeyObject`s, made once per
 * app: a token is derived on every request that checks or sends one.
 *
 * @example
 * ```ts
 * const keys = csrfTokenKeys([parseAppKey(app.config.get('app.key'))])
 * ```
 */
export function csrfTokenKeys(appKeys: Buffer[]): KeyObject[] {
  return appKeys.map((key) => createSecretKey(createHmac('sha256', key).update('kiln:session:csrf').digest()))
}

/**
 * The CSRF token of a session that holds none of its own: an HMAC of its
 * id, 40 hex characters (160 bits), the shape of a stored token. Only the
 * server can compute it (the id is secret and so is the key), and a new id
 * (login, logout) gives a new token.
 *
 * @example
 * ```ts
 * derivedCsrfToken(keys[0], session.id)
 * ```
 */
export function derivedCsrfToken(key: Buffer | KeyObject, id: string): string {
  // A returning browser's every request needs its token (to check the XSRF-TOKEN cookie it sent): remembered per
  // key for the ids seen lately, as the encrypter remembers opened cookies. Only the id's holder can ask for it.
  let known = DERIVED.get(key)
  if (!known) DERIVED.set(key, (known = new Map()))
  let token = known.get(id)
  if (token === undefined) {
    token = createHmac('sha256', key).update(id).digest('hex').slice(0, 40)
    if (known.size >= DERIVED_LIMIT) known.clear()
    known.set(id, token)
  }
  return token
}

const DERIVED = new WeakMap<Buffer | KeyObject, Map<string, string>>()
const DERIVED_LIMIT = 10_000

/**
 * True when `given` is the session's token, plain or masked
 * ({@link maskCsrfToken}), compared in constant time. A session without a
 * token of its own also accepts the token its id derives under a previous
 * key (`previousKeys`), so that rotating `APP_KEY` does not refuse the
 * forms already on screen.
 *
 * @example
 * ```ts
 * tokenMatches(given, session.token(), { id: session.id, previousKeys: keys.slice(1) })
 * ```
 */
export function tokenMatches(given: unknown, expected: string, derivedFrom?: { id: string; previousKeys: Array<Buffer | KeyObject> }): boolean {
  if (typeof given !== 'string' || given.length === 0) return false
  const candidates = [given]
  const unmasked = unmaskCsrfToken(given)
  if (unmasked !== undefined) candidates.push(unmasked)
  for (const candidate of candidates) {
    if (safeEqual(candidate, expected)) return true
    if (derivedFrom !== undefined && derivedFrom.previousKeys.some((key) => safeEqual(candidate, derivedCsrfToken(key, derivedFrom.id)))) return true
  }
  return false
}

/**
 * The CSRF token as it is written into a page: a fresh random pad followed
 * by the pad XOR the token, in base64url, as Rails and Django mask theirs.
 * Every page (every call) gets a different string for the same token, so a
 * compressed page that also reflects what an attacker sent (a search term)
 * gives away nothing about the token through its size (BREACH). The server
 * accepts this form and the plain one (`tokenMatches`).
 *
 * @example
 * ```ts
 * maskCsrfToken(session.token()) // 'q0T...' (107 characters for a 40-character token), new each call
 * ```
 */
export function maskCsrfToken(token: string): string {
  const plain = Buffer.from(token, 'utf8')
  const pad = pooledRandomBytes(plain.length)
  const masked = Buffer.allocUnsafe(plain.length * 2)
  pad.copy(masked, 0)
  for (let i = 0; i < plain.length; i++) masked[plain.length + i] = pad[i]! ^ plain[i]!
  return masked.toString('base64url')
}

// Longest masked token read back: a 40-character token masks to 107 characters; anything much longer is not one,
// and is refused before it is decoded (a huge header costs no work).
const MASKED_MAX = 1024
const BASE64URL = /^[A-Za-z0-9_-]+$/

/**
 * The token inside a masked one ({@link maskCsrfToken}), or `undefined`
 * when `given` cannot be one (wrong length, not base64url, an odd number
 * of bytes).
 *
 * @example
 * ```ts
 * unmaskCsrfToken(maskCsrfToken('abc')) // 'abc'
 * ```
 */
export function unmaskCsrfToken(given: string): string | undefined {
  if (given.length < 4 || given.length > MASKED_MAX || given.length % 4 === 1 || !BASE64URL.test(given)) return undefined
  const bytes = Buffer.from(given, 'base64url')
  if (bytes.length % 2 !== 0) return undefined
  const half = bytes.length / 2
  const plain = Buffer.allocUnsafe(half)
  for (let i = 0; i < half; i++) plain[i] = bytes[i]! ^ bytes[half + i]!
  return plain.toString('utf8')
}
