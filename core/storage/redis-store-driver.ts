import { KilnError } from '../support/errors.ts'
import type { Redis } from 'ioredis'
import type { Driver } from 'unstorage'
import redisDriver from 'unstorage/drivers/redis'
import { joinKeys } from 'unstorage/drivers/utils/index'
import type { AtomicDriver } from './atomic-update.ts'
import { redisLocks } from './redis-locks.ts'
import type { StoreLocks } from './store-lock.ts'
import { failFastRedisOptions, redisReady, redisTarget, ServiceUnavailableError, watchRedis } from '../support/redis-health.ts'

/**
 * Sets KEYS[1] to ARGV[3] (with a TTL of ARGV[4] seconds unless it is 0)
 * only if it still holds ARGV[2] (ARGV[1] = '1') or still does not exist
 * (ARGV[1] = '0'). The values are compared as raw strings, so nothing in
 * them is decoded by Lua.
 */
const COMPARE_AND_SET = `
local current = redis.call('GET', KEYS[1])
if ARGV[1] == '0' then
  if current then return 0 end
elseif current ~= ARGV[2] then
  return 0
end
if ARGV[4] ~= '0' then
  redis.call('SET', KEYS[1], ARGV[3], 'EX', ARGV[4])
else
  redis.call('SET', KEYS[1], ARGV[3])
end
return 1
`
/** Losing this many races in a row on one item means something rewrites it in a loop. */
const MAX_ATTEMPTS = 50

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
 * and the store works again as soon as Redis is back. `updateItemRaw`
 * replaces an item atomically across processes (see `updateItem()`);
 * `locks` are shared by every machine (see `storeLock()`).
 *
 * @example
 * ```ts
 * createStorage({ driver: failFastRedisDriver({ url, prefix: 'shop:sessions', timeoutMs: 1000, store: 'session', logger }) })
 * ```
 */
export function failFastRedisDriver(options: RedisStoreOptions): Driver & AtomicDriver & { locks: StoreLocks } {
  const inner = redisDriver({ url: options.url, base: options.prefix, ...failFastRedisOptions(options) })
  const client = inner.getInstance!() as Redis
  const health = watchRedis(client, options.logger, { store: options.store, redis: redisTarget(options.url) })
  const command = async <R>(run: () => Promise<R>): Promise<R> => {
    try {
      await redisReady(client, options.timeoutMs)
      return await run()
    } catch (error) {
      health.failed(error)
      throw new ServiceUnavailableError(undefined, { cause: error })
    }
  }
  const guard =
    <A extends unknown[], T>(operation: ((...args: A) => T | Promise<T>) | undefined) =>
    (...args: A): Promise<T> =>
      command(async () => operation!(...args))
  return {
    /**
     * Compare-and-set: the write lands only if the item is still what
     * `change` saw, so writers in several processes never undo each other.
     */
    async updateItemRaw(key, change, { ttl }) {
      const full = joinKeys(options.prefix, key)
      const seconds = ttl ? String(wholeSeconds(ttl)) : '0'
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const raw = await command(() => client.get(full))
        // Outside command(): an error of the caller's own is not a Redis outage.
        const next = change(raw)
        if (next === undefined) return
        const swapped = await command(() => client.eval(COMPARE_AND_SET, 1, full, raw === null ? '0' : '1', raw ?? '', next, seconds))
        if (swapped === 1) return
        // Lost a race to another process: step aside a random moment so two writers do not stay in lockstep.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(attempt + 1, 10)))
      }
      throw new KilnError(`The stored item "${key}" kept changing during ${MAX_ATTEMPTS} attempts to update it.`, { code: 'E_STORAGE_CONTENTION' })
    },
    ...inner,
    locks: redisLocks(client, options.prefix, command),
    hasItem: guard(inner.hasItem),
    getItem: guard(inner.getItem),
    getItems: guard(inner.getItems),
    // Redis takes whole seconds only: 0.6 would be refused, so a TTL is rounded up.
    setItem: guard((key: string, value: string, opts?: { ttl?: number }) =>
      inner.setItem!(key, value, opts?.ttl ? { ...opts, ttl: wholeSeconds(opts.ttl) } : (opts ?? {})),
    ),
    removeItem: guard(inner.removeItem),
    getKeys: guard(inner.getKeys),
    clear: guard(inner.clear),
    dispose: async () => {
      health.stop()
      await client.quit().catch(() => client.disconnect())
    },
  }
}

function wholeSeconds(ttl: number): number {
  return Math.max(1, Math.ceil(ttl))
}
