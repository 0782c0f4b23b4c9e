import { KilnError } from '../support/errors.ts'
import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject } from 'node:crypto'
import { pooledRandomBytes } from './random-pool.ts'

const VERSION = 1
/** How many opened values {@link Encrypter} remembers (oldest forgotten first). */
const OPENED_CACHE_SIZE = 2048
/** Larger plain values are opened each time rather than kept. */
const OPENED_CACHE_VALUE_LIMIT = 256

/**
 * AES-256-GCM encryption keyed by `APP_KEY`: random 12-byte IV, 16-byte tag,
 * optional associated data (so a value sealed for one purpose does not open
 * for another). Earlier keys still decrypt, so a key can be rotated.
 *
 * Format: base64url of `version(1) | iv(12) | tag(16) | ciphertext`.
 *
 * @example
 * ```ts
 * const sealed = encrypter.encrypt('42', 'cookie:remember')
 * encrypter.decrypt(sealed, 'cookie:remember') // '42'
 * encrypter.decrypt(sealed, 'cookie:other')    // undefined
 * ```
 */
export class Encrypter {
  /**
   * Values opened recently, by associated data and sealed text. A browser
   * sends the same sealed cookie on every request, and opening it (a new
   * GCM decipher each time) costs more than the rest of the cookie work;
   * only values that authenticated are kept, and never more than
   * {@link OPENED_CACHE_SIZE}.
   */
  private readonly opened = new Map<string, string>()
  /** The current key then the previous ones, as KeyObjects made once (a Buffer key is copied into a new one on every cipher). */
  private readonly keys: KeyObject[]

  constructor(key: Buffer, previousKeys: Buffer[] = []) {
    if (key.length !== 32) throw new KilnError('The encryption key must be 32 bytes.', { code: 'E_ENCRYPTION_KEY' })
    this.keys = [key, ...previousKeys].map((bytes) => createSecretKey(bytes))
  }

  /** Seals a string. @example `encrypter.encrypt('secret')` */
  encrypt(plain: string, associated = ''): string {
    const iv = pooledRandomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', this.keys[0]!, iv)
    cipher.setAAD(Buffer.from(associated))
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
    return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]).toString('base64url')
  }

  /** Opens a sealed string; `undefined` when tampered, truncated or sealed with another key. @example `encrypter.decrypt(v)` */
  decrypt(sealed: string, associated = ''): string | undefined {
    if (typeof sealed !== 'string' || sealed.length < 40 || sealed.length > 16384) return undefined
    const cacheKey = `${associated}\u0000${sealed}`
    const known = this.opened.get(cacheKey)
    if (known !== undefined) return known
    const plain = this.open(sealed, associated)
    if (plain === undefined || plain.length > OPENED_CACHE_VALUE_LIMIT) return plain
    if (this.opened.size >= OPENED_CACHE_SIZE) this.opened.delete(this.opened.keys().next().value!)
    this.opened.set(cacheKey, plain)
    return plain
  }

  private open(sealed: string, associated: string): string | undefined {
    const bytes = Buffer.from(sealed, 'base64url')
    if (bytes.length < 29 || bytes[0] !== VERSION) return undefined
    const iv = bytes.subarray(1, 13)
    const tag = bytes.subarray(13, 29)
    const body = bytes.subarray(29)
    for (const key of this.keys) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv)
        decipher.setAAD(Buffer.from(associated))
        decipher.setAuthTag(tag)
        return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8')
      } catch {
        // Wrong key or tampered: try the next key.
      }
    }
    return undefined
  }
}
