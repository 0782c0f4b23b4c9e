import { pooledRandomBytes } from '../security/random-pool.ts'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/**
 * A new random id: 40 characters from a CSPRNG.
 *
 * @example
 * ```ts
 * randomId() // 'q3Zk...'
 * ```
 */
export function randomId(length = 40): string {
  const bytes = pooledRandomBytes(length * 2)
  let out = ''
  // 248 is the largest multiple of 62 under 256: rejecting above it keeps the choice unbiased.
  for (let i = 0; i < bytes.length && out.length < length; i++) if (bytes[i]! < 248) out += ALPHABET[bytes[i]! % 62]
  return out.length === length ? out : randomId(length)
}
