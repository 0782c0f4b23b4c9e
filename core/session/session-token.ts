import { createHmac, createSecretKey, type KeyObject } from 'node:crypto'
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
 * True when `given` is the session's token, compared in constant time. A
 * session without a token of its own also accepts the token its id derives
 * under a previous key (`previousKeys`), so that rotating `APP_KEY` does not
 * refuse the forms already on screen.
 *
 * @example
 * ```ts
 * tokenMatches(given, session.token(), { id: session.id, previousKeys: keys.slice(1) })
 * ```
 */
export function tokenMatches(given: unknown, expected: string, derivedFrom?: { id: string; previousKeys: Array<Buffer | KeyObject> }): boolean {
  if (typeof given !== 'string' || given.length === 0) return false
  if (safeEqual(given, expected)) return true
  return derivedFrom !== undefined && derivedFrom.previousKeys.some((key) => safeEqual(given, derivedCsrfToken(key, derivedFrom.id)))
}
