import { hash, randomBytes } from 'node:crypto'
import { crc32 } from 'node:zlib'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/**
 * A new secret: the prefix, 40 CSPRNG characters, and the CRC32 (8 hex) of
 * those 40, so scanners and Kiln itself can reject a mistyped or made-up
 * token without a database read.
 *
 * @example
 * ```ts
 * newSecret('kiln_') // 'kiln_q3Z...(40)...1a2b3c4d'
 * ```
 */
export function newSecret(prefix = ''): string {
  const bytes = randomBytes(80)
  let entropy = ''
  // 248 is the largest multiple of 62 under 256: rejecting above it keeps the choice unbiased.
  for (let i = 0; i < bytes.length && entropy.length < 40; i++) if (bytes[i]! < 248) entropy += ALPHABET[bytes[i]! % 62]
  if (entropy.length < 40) return newSecret(prefix)
  return `${prefix}${entropy}${checksum(entropy)}`
}

/**
 * True when a secret looks like one Kiln issued: a prefix, 40 characters and
 * their CRC32. The prefix is a format hint for secret scanners, not part of
 * what is checked: any prefix made of the characters `token_prefix` allows
 * passes, so tokens issued before `TOK_TOKEN_PREFIX` changed keep working
 * (the stored SHA-256 covers the whole secret, prefix included).
 *
 * @example
 * ```ts
 * hasValidChecksum(secret) // true for secrets Kiln issued, whatever their prefix
 * ```
 */
export function hasValidChecksum(secret: string): boolean {
  const prefixLength = secret.length - 48
  // 64: the longest `token_prefix` config accepts.
  if (prefixLength < 0 || prefixLength > 64 || !/^[A-Za-z0-9_-]*$/.test(secret.slice(0, prefixLength))) return false
  const entropy = secret.slice(prefixLength, prefixLength + 40)
  return /^[A-Za-z0-9]{40}$/.test(entropy) && secret.slice(prefixLength + 40) === checksum(entropy)
}

/** The stored form of a secret: hex SHA-256. @example `hashSecret(secret)` */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex')
}

function checksum(entropy: string): string {
  return (crc32(entropy) >>> 0).toString(16).padStart(8, '0')
}
