import { randomFillSync } from 'node:crypto'

// Each `randomBytes()` call costs about 2 µs of CPU here (a crypto job per call), whatever its size, and a new
// visitor's request needs two (its session id, its cookie's IV). One 8 KB fill serves a few hundred of them.
const POOL_SIZE = 8192
const pool = Buffer.allocUnsafe(POOL_SIZE)
let offset = POOL_SIZE

/**
 * `length` bytes from the CSPRNG, as `crypto.randomBytes(length)` gives,
 * taken from a pool filled by `randomFillSync` when it runs out (as Node's
 * own `randomUUID` does): each byte is handed out once, in a new buffer the
 * caller owns.
 *
 * @example
 * ```ts
 * const iv = pooledRandomBytes(12)
 * ```
 */
export function pooledRandomBytes(length: number): Buffer {
  if (length > POOL_SIZE / 4) return randomFillSync(Buffer.allocUnsafe(length))
  if (offset + length > POOL_SIZE) {
    randomFillSync(pool)
    offset = 0
  }
  const bytes = Buffer.from(pool.subarray(offset, offset + length))
  // Never handed out twice: what was given is overwritten now, not at the next fill.
  pool.fill(0, offset, offset + length)
  offset += length
  return bytes
}
