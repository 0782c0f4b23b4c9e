import type Pusher from 'pusher'
import { importOptionalPackage, type Logger, type PusherClient } from '../../../core/index.ts'
import { checkHostedConfig } from './hosted-config.ts'
import { SigningBroadcaster, type BroadcastMessage, type BroadcasterConfig, type AppKeys } from '../../../plugins/broadcasting/index.ts'

/**
 * What the `hosted` connection accepts (filled from `PUSHER_*` in the starter config).
 *
 * @example
 * ```ts
 * hosted: { driver: 'hosted', app_id: env.get('PUSHER_APP_ID'), key: env.get('PUSHER_APP_KEY'), secret: env.get('PUSHER_APP_SECRET'), cluster: 'eu' }
 * ```
 */
export interface HostedConfig extends BroadcasterConfig {
  app_id?: string
  cluster?: string
  /** A self-hosted Pusher-compatible API (for example a Kiln rt server); wins over `cluster`. */
  host?: string
  port?: number | string
  scheme?: 'http' | 'https'
  /** Default: true unless `scheme` is `http`. */
  useTLS?: boolean
  /** Milliseconds before an API call is abandoned. Default 10 s. */
  timeout?: number
}

/** Pusher accepts at most this many channels in one trigger. */
const CHUNK = 100

/** Why the SDK failed: its RequestError carries `status` and `body`, or the network `error` underneath. */
interface SdkError {
  message?: string
  status?: number
  body?: unknown
  error?: { code?: string; name?: string; message?: string }
}

/**
 * Broadcasts through a hosted Pusher-compatible service with the `pusher`
 * SDK, at most 100 channels per API call (each end-to-end encrypted channel
 * alone, as the SDK requires), passing `socket_id` for `toOthers()`.
 * `/broadcasting/auth` keeps signing with the same key and secret, so
 * browsers subscribe to the hosted service. API failures become Errors that
 * name the connection and the HTTP status, never the secret.
 *
 * @example
 * ```ts
 * const hosted = app.service('broadcast').connection('hosted') as HostedBroadcaster
 * await hosted.broadcast({ channels: ['news'], event: 'Published', payload: { id: 1 } })
 * ```
 */
export class HostedBroadcaster extends SigningBroadcaster {
  private client?: Promise<Pusher>

  constructor(
    name: string,
    override readonly config: HostedConfig,
    appKey: Buffer | AppKeys,
    private readonly logger?: Logger,
    /** The app's root: the pusher SDK is loaded from its node_modules, not from Kiln's. */
    private readonly root: string = process.cwd(),
  ) {
    super(name, config, appKey)
    checkHostedConfig(name, config)
  }

  async broadcast({ channels, event, payload, socket }: BroadcastMessage): Promise<void> {
    const pusher = await this.getInstance<Pusher>()
    const calls = chunks(channels)
    let sent = 0
    for (const chunk of calls) {
      try {
        await pusher.trigger(chunk, event, payload, socket ? { socket_id: socket } : undefined)
      } catch (error) {
        const detail = this.describe(error as SdkError)
        const progress = calls.length > 1 ? `; ${sent} of ${channels.length} channels were sent` : ''
        this.logger?.error({ connection: this.name, api: this.target(), event, channels: chunk.length, err: detail }, 'hosted broadcast failed')
        throw new Error(`Broadcast connection "${this.name}" (hosted) could not trigger [${event}] on ${this.target()} (${detail}${progress}).`, {
          cause: error,
        })
      }
      sent += chunk.length
    }
  }

  /**
   * The `pusher` SDK client, created on first use (the SDK loads only then).
   *
   * @example
   * ```ts
   * import type Pusher from 'pusher'
   * const pusher = await hosted.getInstance<Pusher>()
   * await pusher.get({ path: '/channels' })
   * ```
   */
  getInstance<Client = PusherClient>(): Promise<Client> {
    this.client ??= importOptionalPackage<typeof import('pusher')>('pusher', `The hosted broadcast connection "${this.name}"`, this.root).then((PusherSdk) => {
      const { app_id: appId, key, secret, cluster, host, port, scheme, useTLS, timeout } = this.config
      return new PusherSdk({
        appId: appId!,
        key: key!,
        secret: secret!,
        ...(host ? { host, ...(port ? { port: String(port) } : {}) } : { cluster: cluster ?? 'mt1' }),
        useTLS: useTLS ?? scheme !== 'http',
        timeout: timeout ?? 10_000,
        // The same master key /broadcasting/auth derives shared secrets from, so browsers can open what the SDK seals.
        encryptionMasterKeyBase64: this.encryptionMasterKey().toString('base64'),
      })
    })
    return this.client as Promise<unknown> as Promise<Client>
  }

  /** The API the SDK talks to, for messages: host and port, no credentials. */
  private target(): string {
    const { host, port, cluster } = this.config
    return host ? `${host}${port ? `:${port}` : ''}` : `api-${cluster ?? 'mt1'}.pusher.com`
  }

  /** A short reason: the HTTP status and the start of the body, or the network failure. */
  private describe(error: SdkError): string {
    let detail: string
    if (typeof error.status === 'number') detail = `HTTP ${error.status}${error.body ? `: ${String(error.body).slice(0, 200)}` : ''}`
    else if (error.error)
      detail = error.error.name === 'AbortError' ? 'timed out' : `unreachable: ${error.error.code ?? error.error.message ?? 'network error'}`
    else detail = error.message ?? String(error)
    return detail.replaceAll(this.config.secret!, '[secret]')
  }
}

/** Plain channels in groups of 100; an encrypted channel always alone (the SDK encrypts per channel). */
function chunks(channels: string[]): string[][] {
  const plain = channels.filter((channel) => !channel.startsWith('private-encrypted-'))
  const out: string[][] = []
  for (let i = 0; i < plain.length; i += CHUNK) out.push(plain.slice(i, i + CHUNK))
  for (const channel of channels) if (channel.startsWith('private-encrypted-')) out.push([channel])
  return out
}
