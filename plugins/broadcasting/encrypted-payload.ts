import { createHash, randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import type Nacl from 'tweetnacl'

// tweetnacl is needed only by apps with encrypted channels, when they send or open a payload: required then, not at
// boot (it is CommonJS, so a synchronous require gives the same module an import would).
let loaded: typeof Nacl | undefined
const nacl = (): typeof Nacl => (loaded ??= createRequire(import.meta.url)('tweetnacl') as typeof Nacl)

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
 * NaCl secretbox (tweetnacl, as pusher-js uses to open it) of the JSON
 * payload under the channel's key. Servers and relays see only this.
 *
 * @example
 * ```ts
 * encryptPayload('private-encrypted-vault', { pin: 1234 }, masterKey) // { nonce: '...', ciphertext: '...' }
 * ```
 */
export function encryptPayload(channel: string, payload: unknown, masterKey: Buffer): { nonce: string; ciphertext: string } {
  const nonce = randomBytes(nacl().secretbox.nonceLength)
  const box = nacl().secretbox(Buffer.from(JSON.stringify(payload)), nonce, channelKey(channel, masterKey))
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
  const opened = nacl().secretbox.open(Buffer.from(sealed.ciphertext, 'base64'), Buffer.from(sealed.nonce, 'base64'), channelKey(channel, masterKey))
  return opened ? JSON.parse(Buffer.from(opened).toString('utf8')) : undefined
}
