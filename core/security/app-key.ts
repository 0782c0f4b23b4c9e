import { randomBytes } from 'node:crypto'
import { KilnError } from '../support/errors.ts'

/**
 * Makes a fresh `APP_KEY` value: 32 random bytes, `base64:`-prefixed.
 *
 * @example
 * ```ts
 * generateAppKey() // 'base64:3q2+7w...='
 * ```
 */
export function generateAppKey(): string {
  return `base64:${randomBytes(32).toString('base64')}`
}

/**
 * Decodes an `APP_KEY` (`base64:...`, or a raw string of at least 32 bytes) to key bytes.
 *
 * @example
 * ```ts
 * parseAppKey(generateAppKey()).length // 32
 * ```
 */
export function parseAppKey(value: string): Buffer {
  const bytes = value.startsWith('base64:') ? Buffer.from(value.slice(7), 'base64') : Buffer.from(value, 'utf8')
  if (bytes.length < 32) {
    throw new KilnError('APP_KEY is too short: it needs 32 bytes of key material.', { hint: 'Run `kiln key:generate` to make a new one.' })
  }
  return bytes.subarray(0, 32)
}

/**
 * The missing-key error, naming the command that fixes it.
 *
 * @example
 * ```ts
 * if (!key) throw missingAppKey()
 * ```
 */
export function missingAppKey(): KilnError {
  return new KilnError('No APP_KEY is set: Kiln needs it to encrypt cookies and sign URLs.', {
    hint: 'Run `kiln key:generate` to write one into .env.',
  })
}
