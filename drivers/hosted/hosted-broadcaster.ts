import type Pusher from 'pusher'
import { SigningBroadcaster, type BroadcastMessage, type BroadcasterConfig } from '../../plugins/broadcasting/index.ts'

/** What the `hosted` connection accepts (filled from `PUSHER_*` in the starter config). */
export interface HostedConfig extends BroadcasterConfig {
  app_id?: string
  cluster?: string
  /** A self-hosted Pusher-compatible API (for example a Kiln rt server). */
  host?: string
  port?: number
  scheme?: 'http' | 'https'
  useTLS?: boolean
  /** Milliseconds before an API call is abandoned. Default 10 s. */
  timeout?: number
}

const CHUNK = 100

/**
 * Broadcasts through a hosted Pusher-compatible service with the `pusher`
 * SDK, 100 channels per API call. `/broadcasting/auth` keeps signing with
 * the same key and secret, so browsers subscribe to the hosted service.
 *
 * @example
 * ```ts
 * const hosted = app.service<BroadcastManager>('broadcast').connection('hosted') as HostedBroadcaster
 * await hosted.broadcast({ channels: ['news'], event: 'Published', payload: { id: 1 } })
 * ```
 */
export class HostedBroadcaster extends SigningBroadcaster {
  private client?: Promise<Pusher>

  constructor(name: string, override readonly config: HostedConfig, appKey: Buffer) {
    super(name, config, appKey)
    const required = { app_id: 'PUSHER_APP_ID', key: 'PUSHER_APP_KEY', secret: 'PUSHER_APP_SECRET' } as const
    for (const [option, variable] of Object.entries(required)) {
      if (!config[option]) throw new Error(`config/broadcasting.ts connections.${name}: the hosted driver needs "${option}" (${variable} in the starter config).`)
    }
  }

  async broadcast({ channels, event, payload, socket }: BroadcastMessage): Promise<void> {
    const pusher = await this.getInstance()
    for (let i = 0; i < channels.length; i += CHUNK) {
      const chunk = channels.slice(i, i + CHUNK)
      try {
        await pusher.trigger(chunk, event, payload, socket ? { socket_id: socket } : undefined)
      } catch (error) {
        const { status, body, message } = error as { status?: number; body?: string; message: string }
        const detail = status ? `HTTP ${status}${body ? `: ${String(body).slice(0, 200)}` : ''}` : message
        throw new Error(`Broadcast connection "${this.name}" (hosted) could not trigger [${event}] (${detail}).`)
      }
    }
  }

  /** The `pusher` SDK client, created on first use. @example `(await hosted.getInstance()).trigger(...)` */
  getInstance(): Promise<Pusher> {
    this.client ??= import('pusher').then(({ default: PusherSdk }) => {
      const { app_id: appId, key, secret, cluster, host, port, scheme, useTLS, encryption_master_key: encryptionMasterKeyBase64, timeout } = this.config
      return new PusherSdk({
        appId: appId!,
        key: key!,
        secret: secret!,
        ...(host ? { host, ...(port ? { port: String(port) } : {}) } : { cluster: cluster ?? 'mt1' }),
        useTLS: useTLS ?? scheme !== 'http',
        timeout: timeout ?? 10_000,
        ...(encryptionMasterKeyBase64 ? { encryptionMasterKeyBase64 } : {}),
      })
    })
    return this.client
  }
}
