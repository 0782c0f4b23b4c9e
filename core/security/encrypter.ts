import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

const VERSION = 1

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
  constructor(
    private readonly key: Buffer,
    private readonly previousKeys: Buffer[] = [],
  ) {
    if (key.length !== 32) throw new Error('The encryption key must be 32 bytes.')
  }

  /** Seals a string. @example `encrypter.encrypt('secret')` */
  encrypt(plain: string, associated = ''): string {
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', this.key, iv)
    cipher.setAAD(Buffer.from(associated))
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
    return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]).toString('base64url')
  }

  /** Opens a sealed string; `undefined` when tampered, truncated or sealed with another key. @example `encrypter.decrypt(v)` */
  decrypt(sealed: string, associated = ''): string | undefined {
    if (typeof sealed !== 'string' || sealed.length < 40 || sealed.length > 16384) return undefined
    const bytes = Buffer.from(sealed, 'base64url')
    if (bytes.length < 29 || bytes[0] !== VERSION) return undefined
    const iv = bytes.subarray(1, 13)
    const tag = bytes.subarray(13, 29)
    const body = bytes.subarray(29)
    for (const key of [this.key, ...this.previousKeys]) {
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
