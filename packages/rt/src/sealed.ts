import { xsalsa20poly1305 } from '@noble/ciphers/salsa.js'

/** Key and nonce lengths of a NaCl secretbox (XSalsa20-Poly1305). */
const KEY_LENGTH = 32
const NONCE_LENGTH = 24

/**
 * The channel key from a `shared_secret` (base64 of 32 bytes), as the auth
 * endpoint returns it for `private-encrypted-` channels; undefined when it
 * is not one.
 *
 * @example
 * ```ts
 * const key = channelKey(signed.shared_secret)
 * ```
 */
export function channelKey(sharedSecret: unknown): Uint8Array | undefined {
  if (typeof sharedSecret !== 'string') return undefined
  const key = fromBase64(sharedSecret)
  return key?.length === KEY_LENGTH ? key : undefined
}

/**
 * Opens an event's `{ nonce, ciphertext }` (base64; a NaCl secretbox of its
 * JSON, Pusher's format) with the channel key. `{ value }` when it opens,
 * undefined when the key does not open it or it is not sealed.
 *
 * @example
 * ```ts
 * const opened = openSealed(frame.data, key) // { value: { pin: 1234 } }
 * ```
 */
export function openSealed(data: unknown, key: Uint8Array): { value: unknown } | undefined {
  const { nonce, ciphertext } = (data ?? {}) as { nonce?: unknown; ciphertext?: unknown }
  if (typeof nonce !== 'string' || typeof ciphertext !== 'string') return undefined
  const nonceBytes = fromBase64(nonce)
  const box = fromBase64(ciphertext)
  if (!nonceBytes || !box || nonceBytes.length !== NONCE_LENGTH) return undefined
  try {
    // decrypt throws when the tag does not match (another key, or altered): not sealed for this key.
    const opened = xsalsa20poly1305(key, nonceBytes).decrypt(box)
    return { value: JSON.parse(new TextDecoder().decode(opened)) }
  } catch {
    return undefined
  }
}

function fromBase64(text: string): Uint8Array | undefined {
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0))
  } catch {
    return undefined
  }
}
