import type { Redis } from 'ioredis'
import type { Driver } from 'unstorage'
import redisDriver from 'unstorage/drivers/redis'
import { failFastRedisOptions, redisReady, redisTarget, ServiceUnavailableError, watchRedis } from '../support/redis-health.ts'

/** Options of {@link failFastRedisDriver}. */
export interface RedisStoreOptions {
  url: string
  /** Key prefix (unstorage's `base`). */
  prefix: string
  /** The longest a request waits on Redis before it gets 503. */
  timeoutMs: number
  /** The store's name, for the log. */
  store: string
  logger: { warn(context: Record<string, unknown>, message: string): void; info(context: Record<string, unknown>, message: string): void }
}

/**
 * unstorage's redis driver on a client that fails fast: while Redis is down
 * or stalled, every operation fails within `timeoutMs` with a
 * `ServiceUnavailableError` (503), the log gets one warning for the outage,
 * and the store works again as soon as Redis is back.
 *
 * @example
 * ```ts
 * createStorage({ driver: failFastRedisDriver({ url, prefix: 'shop:sessions', timeoutMs: 1000, store: 'session', logger }) })
 * ```
 */
export function failFastRedisDriver(options: RedisStoreOptions): Driver {
  const inner = redisDriver({ url: options.url, base: options.prefix, ...failFastRedisOptions(options) })
  const client = inner.getInstance!() as Redis
  const health = watchRedis(client, options.logger, { store: options.store, redis: redisTarget(options.url) })
  const guard =
    <A extends unknown[], R>(operation: ((...args: A) => R) | undefined) =>
    async (...args: A): Promise<Awaited<R>> => {
      try {
        await redisReady(client, options.timeoutMs)
        return await operation!(...args)
      } catch (error) {
        health.failed(error)
        throw new ServiceUnavailableError(undefined, { cause: error })
      }
    }
  return {
    ...inner,
    hasItem: guard(inner.hasItem),
    getItem: guard(inner.getItem),
    getItems: guard(inner.getItems),
    setItem: guard(inner.setItem),
    removeItem: guard(inner.removeItem),
    getKeys: guard(inner.getKeys),
    clear: guard(inner.clear),
    dispose: async () => {
      health.stop()
      await client.quit().catch(() => client.disconnect())
    },
  }
}
