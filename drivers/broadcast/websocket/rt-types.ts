/** Why a mount refuses a connection at open (for example a wrong Pusher app key). @example `{ code: 4001, message: 'App key not in this cluster.' }` */
export interface Refusal {
  code: number
  message: string
}

/** Credentials the server verifies subscriptions with. @example `{ key: 'app-key', secret: 'app-secret' }` */
export interface RtCredentials {
  key: string
  secret: string
  /** Also accepted when verifying (previous app keys during a rotation). */
  previousSecrets?: string[]
  /** The 32-byte master key of `private-encrypted-` channels. */
  masterKey?: Buffer
}

/**
 * How a publish travels.
 *
 * @example
 * ```ts
 * await server.publish(['private-encrypted-vault'], 'Opened', sealedJson, undefined, { id: 'b1', sealed: true })
 * ```
 */
export interface PublishOptions {
  /** The broadcast's id: every process delivers it once, however many times it hears it. */
  id?: string
  /** The data on `private-encrypted-` channels is already `{nonce, ciphertext}` (the publisher sealed it, as Pusher's SDKs do): pass it on as is. */
  sealed?: boolean
}
