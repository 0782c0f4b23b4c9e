import { createHmac } from 'node:crypto'
import { channelAuth, sharedSecret } from './signatures.ts'
import type { BroadcastMessage, Broadcaster, BroadcasterConfig } from './broadcaster.ts'

/** The application keys a broadcaster signs with when its connection has no secret of its own. */
export interface AppKeys {
  /** `APP_KEY`, decoded. */
  key: Buffer
  /** `APP_KEY` as configured (`base64:...`): the fallback signing secret, which other servers holding APP_KEY share. */
  current: string
  /** `APP_PREVIOUS_KEYS`: still accepted when verifying, during a key rotation. */
  previous: string[]
}

/**
 * The base of Kiln's broadcasters: signs subscriptions Pusher-style with the
 * connection's `key` and `secret`. With no `secret`, the signing secret is
 * `APP_KEY` itself, so another server that holds `APP_KEY` (a separate rt
 * process, a Pusher-compatible server) verifies the same signatures, and
 * `APP_PREVIOUS_KEYS` still verify during a rotation. Encrypted channels get
 * a per-channel `shared_secret` from the master key
 * (`encryption_master_key`, else one derived from `APP_KEY`).
 *
 * @example
 * ```ts
 * class NullBroadcaster extends SigningBroadcaster {
 *   async broadcast() {}
 * }
 * ```
 */
export abstract class SigningBroadcaster implements Broadcaster {
  readonly key: string
  private readonly secret: string
  private readonly previousSecrets: string[]
  private readonly masterKey: Buffer

  constructor(
    readonly name: string,
    readonly config: BroadcasterConfig,
    appKey: Buffer | AppKeys,
  ) {
    const keys: AppKeys = Buffer.isBuffer(appKey) ? { key: appKey, current: '', previous: [] } : appKey
    // An empty key or secret (a blank variable) counts as none: an empty HMAC key would let anyone sign.
    this.key = config.key || createHmac('sha256', keys.key).update(`kiln:broadcast-key:${name}`).digest('hex').slice(0, 20)
    this.secret = config.secret || keys.current || createHmac('sha256', keys.key).update(`kiln:broadcast-secret:${name}`).digest('hex')
    this.previousSecrets = config.secret ? [] : keys.previous
    this.masterKey = config.encryption_master_key
      ? Buffer.from(config.encryption_master_key, 'base64')
      : createHmac('sha256', keys.key).update('kiln:broadcast-encryption').digest()
    if (this.masterKey.length !== 32) throw new Error(`config/broadcasting.ts connections.${name}.encryption_master_key must be base64 of 32 bytes.`)
  }

  abstract broadcast(message: BroadcastMessage): Promise<void>

  signChannel(socketId: string, channel: string, channelData?: string): { auth: string; shared_secret?: string } {
    const auth = channelAuth(this.key, this.secret, socketId, channel, channelData)
    return channel.startsWith('private-encrypted-') ? { auth, shared_secret: sharedSecret(channel, this.masterKey) } : { auth }
  }

  signUser(socketId: string, userData: string): { auth: string } {
    return { auth: `${this.key}:${createHmac('sha256', this.secret).update(`${socketId}::user::${userData}`).digest('hex')}` }
  }

  /** The secret, for drivers that verify what they signed (the websocket server). @internal */
  protected signingSecret(): string {
    return this.secret
  }

  /** Every secret a signature may have been made with: the current one, then previous app keys. @internal */
  protected verificationSecrets(): string[] {
    return [this.secret, ...this.previousSecrets]
  }

  /** The 32-byte master key of encrypted channels. @internal */
  protected encryptionMasterKey(): Buffer {
    return this.masterKey
  }
}
