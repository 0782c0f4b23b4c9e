import { createHmac } from 'node:crypto'
import { channelAuth, sharedSecret } from './signatures.ts'
import type { BroadcastMessage, Broadcaster, BroadcasterConfig } from './broadcaster.ts'

/**
 * The base of Kiln's broadcasters: signs subscriptions Pusher-style with the
 * connection's `key` and `secret`, falling back to a key and secret derived
 * from `APP_KEY`. Encrypted channels get a per-channel `shared_secret`.
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
  private readonly masterKey: Buffer

  constructor(
    readonly name: string,
    readonly config: BroadcasterConfig,
    appKey: Buffer,
  ) {
    this.key = config.key ?? createHmac('sha256', appKey).update(`kiln:broadcast-key:${name}`).digest('hex').slice(0, 20)
    this.secret = config.secret ?? createHmac('sha256', appKey).update(`kiln:broadcast-secret:${name}`).digest('hex')
    this.masterKey = config.encryption_master_key ? Buffer.from(config.encryption_master_key, 'base64') : createHmac('sha256', appKey).update('kiln:broadcast-encryption').digest()
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
}
