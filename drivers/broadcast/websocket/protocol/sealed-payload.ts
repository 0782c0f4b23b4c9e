import { ENCRYPTED_PREFIX } from '../../../../plugins/broadcasting/index.ts'

/** True for a `private-encrypted-` channel. @example `isEncryptedChannel('private-encrypted-vault') // true` */
export function isEncryptedChannel(channel: string): boolean {
  return channel.startsWith(ENCRYPTED_PREFIX)
}

/**
 * True when event data is an end-to-end sealed payload, `{nonce,
 * ciphertext}` (both strings), as an object or as its JSON text (the Pusher
 * HTTP API carries data as a string). Anything else must never go out on an
 * encrypted channel.
 *
 * @example
 * ```ts
 * isSealed('{"nonce":"...","ciphertext":"..."}') // true
 * isSealed({ pin: 1234 }) // false
 * ```
 */
export function isSealed(data: unknown): boolean {
  let value = data
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value)
    } catch {
      return false
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const keys = Object.keys(value)
  const { nonce, ciphertext } = value as Record<string, unknown>
  return keys.length === 2 && typeof nonce === 'string' && typeof ciphertext === 'string'
}
