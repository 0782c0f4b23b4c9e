import type { Redis } from 'ioredis'
import type { Logger } from '../../core/index.ts'
import { SigningBroadcaster, type BroadcastMessage, type BroadcasterConfig } from '../../plugins/broadcasting/index.ts'

/** What the `kv` connection accepts in `config/broadcasting.ts`. */
export interface KvConfig extends BroadcasterConfig {
  /** Default: REDIS_URL, else redis://127.0.0.1:6379. */
  url?: string
  /** Shared with rt's `scaling.prefix`; apps sharing a Redis use different ones. Default `kiln:`. */
  prefix?: string
}

/**
 * Publishes each broadcast to Redis as `{event, data, socket}` on
 * `<prefix><channel>`, the wire format rt servers with scaling relay to
 * their sockets (and that other bridges can read).
 *
 * @example
 * ```ts
 * const kv = app.service<BroadcastManager>('broadcast').connection('kv') as KvBroadcaster
 * await kv.broadcast({ channels: ['orders.1'], event: 'OrderShipped', payload: { id: 1 } })
 * ```
 */
export class KvBroadcaster extends SigningBroadcaster {
  private client?: Promise<Redis>
  readonly prefix: string

  constructor(name: string, override readonly config: KvConfig, appKey: Buffer, private readonly logger: Logger) {
    super(name, config, appKey)
    this.prefix = config.prefix ?? 'kiln:'
  }

  async broadcast({ channels, event, payload, socket }: BroadcastMessage): Promise<void> {
    const redis = await this.getInstance()
    const text = JSON.stringify({ event, data: payload, socket: socket ?? null })
    const pipeline = redis.pipeline()
    for (const channel of channels) pipeline.publish(this.prefix + channel, text)
    try {
      const results = (await pipeline.exec()) ?? []
      const failed = results.find(([error]) => error)
      if (failed) throw failed[0]
    } catch (error) {
      const reason = (error as Error).message
      this.logger.error({ connection: this.name, event, channels: channels.length, err: reason }, 'kv broadcast failed: Redis is unreachable')
      throw new Error(`Broadcast connection "${this.name}" (kv) could not publish [${event}]: Redis is unreachable (${reason}).`)
    }
  }

  /** The ioredis client, connected on first use. @example `await kv.getInstance()` */
  getInstance(): Promise<Redis> {
    this.client ??= import('ioredis').then(({ Redis: IORedis }) => {
      const client = new IORedis(this.config.url ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
        // Fail fast while Redis is down so the queued job retries, instead of parking commands.
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
        lazyConnect: true,
      })
      client.on('error', (error) => this.logger.warn({ connection: this.name, err: error.message }, 'kv: Redis connection error'))
      return client.connect().catch(() => undefined).then(() => client)
    })
    return this.client
  }

  async close(): Promise<void> {
    const client = await this.client
    if (client) await client.quit().catch(() => client.disconnect())
  }
}
