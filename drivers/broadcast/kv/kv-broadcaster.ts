import type { Redis } from 'ioredis'
import { importOptionalPackage, type Logger, type RedisClient } from '../../../core/index.ts'
import {
  encryptPayload,
  ENCRYPTED_PREFIX,
  SigningBroadcaster,
  type BroadcastMessage,
  type BroadcasterConfig,
  type AppKeys,
} from '../../../plugins/broadcasting/index.ts'

/**
 * What the `kv` connection accepts in `config/broadcasting.ts`.
 *
 * @example
 * ```ts
 * kv: { driver: 'kv', url: env.get('REDIS_URL'), prefix: 'shop:', timeout: 2_000 }
 * ```
 */
export interface KvConfig extends BroadcasterConfig {
  /** Default: REDIS_URL, else redis://127.0.0.1:6379. */
  url?: string
  /** Shared with rt's `scaling.prefix`; apps sharing a Redis use different ones. Default: the app's name as a slug, `my_shop:`. */
  prefix?: string
  /** Milliseconds a publish may wait for Redis before it fails. Default 5,000. */
  timeout?: number
}

/**
 * What travels on `<prefix><channel>`: the rt server's relay reads exactly this.
 *
 * @example
 * ```ts
 * const message: KvWireMessage = JSON.parse(text) // { event: 'OrderShipped', data: { id: 1 }, socket: null }
 * ```
 */
export interface KvWireMessage {
  event: string
  /** The payload; on a `private-encrypted-` channel, `{nonce, ciphertext}` sealed for that channel. */
  data: Record<string, unknown>
  socket: string | null
  /** The broadcast's id, the same for every retry: rt servers deliver it once. */
  id?: string
}

/**
 * Publishes each broadcast to Redis as `{event, data, socket, id}` on
 * `<prefix><channel>`, one pipeline per broadcast: the wire format rt
 * servers with scaling relay to their sockets. While Redis is down a
 * broadcast fails at once (no offline queue), so a queued broadcast job
 * fails and is retried; the client reconnects by itself. A stalled Redis
 * costs one timeout: the connection is dropped and made again. The log gets
 * one warning per outage, not one line per failed broadcast.
 *
 * @example
 * ```ts
 * const kv = app.service('broadcast').connection('kv') as KvBroadcaster
 * await kv.broadcast({ channels: ['orders.1'], event: 'OrderShipped', payload: { id: 1 } })
 * ```
 */
export class KvBroadcaster extends SigningBroadcaster {
  readonly prefix: string
  private client?: Promise<Redis>
  private down = false
  private closing = false

  constructor(
    name: string,
    override readonly config: KvConfig,
    appKey: Buffer | AppKeys,
    private readonly logger: Logger,
    /** The app's root: ioredis is loaded from its node_modules, not from Kiln's. */
    private readonly root: string = process.cwd(),
  ) {
    super(name, config, appKey)
    this.prefix = config.prefix ?? 'kiln:'
  }

  async broadcast({ channels, event, payload, socket, id }: BroadcastMessage): Promise<void> {
    if (channels.length === 0) return
    const redis = await this.getInstance<Redis>()
    const message: KvWireMessage = { event, data: payload, socket: socket ?? null, ...(id ? { id } : {}) }
    const text = JSON.stringify(message)
    const pipeline = redis.pipeline()
    for (const channel of channels) {
      // End to end: an encrypted channel's payload leaves the app sealed, so neither Redis nor the relay can read it.
      const sealed = channel.startsWith(ENCRYPTED_PREFIX)
        ? JSON.stringify({ ...message, data: encryptPayload(channel, payload, this.encryptionMasterKey()) })
        : text
      pipeline.publish(this.prefix + channel, sealed)
    }
    try {
      const failed = ((await pipeline.exec()) ?? []).find(([error]) => error)
      if (failed) throw failed[0]
    } catch (error) {
      const reason = (error as Error).message
      // A reply error means Redis answered and refused (a bug or a setting, logged each time); anything else
      // (closed stream, timeout, retries spent) means it is out of reach: an outage, logged once.
      const refused = (error as Error).name === 'ReplyError'
      const what = refused ? 'Redis refused the publish' : 'Redis is unreachable'
      if (refused)
        this.logger.error({ connection: this.name, redis: this.target(), event, channels: channels.length, err: reason }, `kv broadcast failed: ${what}`)
      else this.lost(error as Error)
      throw new Error(`Broadcast connection "${this.name}" (kv) could not publish [${event}] to ${this.target()}: ${what} (${reason}).`, { cause: error })
    }
  }

  /** ioredis, from the app's own node_modules (an optional package). */
  private ioredis(): Promise<typeof import('ioredis')> {
    return importOptionalPackage<typeof import('ioredis')>('ioredis', `The kv broadcast connection "${this.name}"`, this.root)
  }

  /**
   * The ioredis client, created and connected on first use (ioredis loads
   * only then).
   *
   * @example
   * ```ts
   * import type { Redis } from 'ioredis'
   * const redis = await kv.getInstance<Redis>()
   * await redis.publish('kiln:news', JSON.stringify({ event: 'Hi', data: {}, socket: null }))
   * ```
   */
  getInstance<Client = RedisClient>(): Promise<Client> {
    this.client ??= this.ioredis().then(({ Redis: IORedis }) => {
      const client = new IORedis(this.url(), {
        // Fail fast while Redis is down so the queued job fails and retries, instead of parking commands.
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        commandTimeout: this.config.timeout ?? 5_000,
        // A connection that stops answering is dropped and made again: later publishes fail at once instead of each waiting out the timeout.
        socketTimeout: this.config.timeout ?? 5_000,
        // A publish cut off by a dropped connection fails at once (its job retries it, with the same id) rather than being sent again behind its back.
        autoResendUnfulfilledCommands: false,
        retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
        lazyConnect: true,
      })
      client.on('error', (error) => this.lost(error))
      client.on('close', () => this.lost())
      client.on('ready', () => {
        if (!this.down) return
        this.down = false
        this.logger.info({ connection: this.name, redis: this.target() }, 'kv: Redis connection restored')
      })
      // A first connection that fails is not fatal: ioredis keeps retrying and each broadcast reports the outage.
      return client.connect().then(
        () => client,
        () => client,
      )
    })
    return this.client as Promise<unknown> as Promise<Client>
  }

  async close(): Promise<void> {
    this.closing = true
    const client = await this.client
    if (client) await client.quit().catch(() => client.disconnect())
  }

  /** One warning per outage (ioredis reports every reconnect attempt, and every broadcast fails): a note when it ends. */
  private lost(error?: Error): void {
    if (this.down || this.closing) return
    this.down = true
    this.logger.warn({ connection: this.name, redis: this.target(), ...(error ? { err: error.message } : {}) }, 'kv: Redis connection lost; reconnecting')
  }

  private url(): string {
    return this.config.url ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
  }

  /** The Redis address for messages and logs: never the credentials in the URL. */
  private target(): string {
    try {
      const url = new URL(this.url())
      return `${url.protocol}//${url.hostname}:${url.port || '6379'}`
    } catch {
      return 'Redis'
    }
  }
}
