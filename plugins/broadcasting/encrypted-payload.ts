import { createHash, randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import type * as Salsa from '@noble/ciphers/salsa.js'

// @noble/ciphers is needed only by apps with encrypted channels, when they send or open a payload: loaded then, not at
// boot. encryptPayload is synchronous, so a synchronous require (Node loads ES modules with it since 20.19).
let loaded: typeof Salsa | undefined
const salsa = (): typeof Salsa => (loaded ??= createRequire(import.meta.url)('@noble/ciphers/salsa.js') as typeof Salsa)

/** NaCl secretbox nonces are 24 bytes (XSalsa20). */
const NONCE_LENGTH = 24

/** The prefix of end-to-end encrypted channels. */
export const ENCRYPTED_PREFIX = 'private-encrypted-'

/**
 * The 32-byte secretbox key of one encrypted channel, as Pusher derives it:
 * sha256(channel name + master key). Browsers receive it (base64) as
 * `shared_secret` when `/broadcasting/auth` admits them.
 *
 * @example
 * ```ts
 * channelKey('private-encrypted-vault', masterKey).length // 32
 * ```
 */
export function channelKey(channel: string, masterKey: Buffer): Buffer {
  if (masterKey.length !== 32) throw new Error('The encryption master key must be 32 bytes (encryption_master_key is base64 of 32 random bytes).')
  return createHash('sha256')
    .update(Buffer.concat([Buffer.from(channel), masterKey]))
    .digest()
}

/**
 * The payload of an event on a `private-encrypted-` channel, as the Pusher
 * protocol carries it: `{ nonce, ciphertext }`, both base64, the ciphertext a
 * NaCl secretbox (XSalsa20-Poly1305, what pusher-js opens with tweetnacl) of the JSON
 * payload under the channel's key. Servers and relays see only this.
 *
 * @example
 * ```ts
 * encryptPayload('private-encrypted-vault', { pin: 1234 }, masterKey) // { nonce: '...', ciphertext: '...' }
 * ```
 */
export function encryptPayload(channel: string, payload: unknown, masterKey: Buffer): { nonce: string; ciphertext: string } {
  const nonce = randomBytes(NONCE_LENGTH)
  const box = salsa()
    .xsalsa20poly1305(channelKey(channel, masterKey), nonce)
    .encrypt(Buffer.from(JSON.stringify(payload)))
  return { nonce: nonce.toString('base64'), ciphertext: Buffer.from(box).toString('base64') }
}

/**
 * Opens what {@link encryptPayload} sealed, or undefined when it was not
 * sealed with this channel's key.
 *
 * @example
 * ```ts
 * decryptPayload('private-encrypted-vault', frame.data, masterKey) // { pin: 1234 }
 * ```
 */
export function decryptPayload(channel: string, sealed: { nonce: string; ciphertext: string }, masterKey: Buffer): unknown {
  const nonce = Buffer.from(sealed.nonce, 'base64')
  if (nonce.length !== NONCE_LENGTH) return undefined
  let opened: Uint8Array
  try {
    opened = salsa().xsalsa20poly1305(channelKey(channel, masterKey), nonce).decrypt(Buffer.from(sealed.ciphertext, 'base64'))
  } catch {
    // The tag does not match: sealed with another key, or altered on the way.
    return undefined
  }
  return JSON.parse(Buffer.from(opened).toString('utf8'))
}
