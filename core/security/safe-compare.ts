import { createHmac, timingSafeEqual, type KeyObject } from 'node:crypto'

/**
 * Compares two secrets in constant time (for equal lengths; a length
 * mismatch is a plain `false`).
 *
 * @example
 * ```ts
 * if (!safeEqual(given, expected)) abort(419)
 * ```
 */
export function safeEqual(a: string | Buffer, b: string | Buffer): boolean {
  const x = typeof a === 'string' ? Buffer.from(a) : a
  const y = typeof b === 'string' ? Buffer.from(b) : b
  return x.length === y.length && timingSafeEqual(x, y)
}

/**
 * A hex HMAC-SHA256. A key used on every request is best made once with
 * `createSecretKey`: a `KeyObject` is not copied into a new key each call.
 *
 * @example
 * ```ts
 * hmacHex(key, '/comp/update?expires=1700000000')
 * ```
 */
export function hmacHex(key: string | Buffer | KeyObject, data: string): string {
  return createHmac('sha256', key).update(data).digest('hex')
}
