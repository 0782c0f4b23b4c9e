import { randomUUID } from 'node:crypto'
import {
  appSlug,
  failFastRedisOptions,
  importOptionalPackage,
  maybeCurrentApp,
  onAnyModelEvent,
  onAnyQueryWrite,
  redisReady,
  redisTarget,
  watchRedis,
  type Application,
  type Model,
} from '../../core/index.ts'
import { isInvalidation, type Invalidation, type TokenCache } from './token-cache.ts'
import { personalAccessTokenModel } from './personal-access-token.ts'

// Writes to these token columns are bookkeeping: they change nothing a cached verification depends on.
const BOOKKEEPING = new Set(['last_used_at', 'updated_at'])

/**
 * Keeps a {@link TokenCache} honest. In this process: a token updated,
 * deleted or restored through its model drops its entry; a user model
 * written the same way drops its user's entries; a write through a token or
 * user query builder (`user.tokensDelete()`, `tok:prune-expired`) empties
 * the cache, since which rows it touched is unknown. Each of those is
 * published on Redis (`redis` given) before the write returns, and every
 * other process applies it. While the subscription is down, the cache is
 * bypassed (it may miss an invalidation); once back, it starts empty.
 *
 * @example
 * ```ts
 * const sync = await syncTokenCache(app, cache, { redis: 'redis://127.0.0.1:6379', timeoutMs: 1000 })
 * await sync.close()
 * ```
 */
export async function syncTokenCache(app: Application, cache: TokenCache, options: { redis?: string; timeoutMs: number }): Promise<{ close(): Promise<void> }> {
  const origin = randomUUID()
  const channel = `${appSlug(app.config.get<string>('app.name'))}:tok:cache`
  let publish: (message: Invalidation) => Promise<void> = async () => {}
  const closers: Array<() => Promise<unknown>> = []

  if (options.redis) {
    const { Redis: RedisClient } = await importOptionalPackage<typeof import('ioredis')>('ioredis', 'The token cache shared across processes', app.root)
    const target = redisTarget(options.redis)
    const publisher = new RedisClient(options.redis, { ...failFastRedisOptions(options), lazyConnect: true })
    const subscriber = new RedisClient(options.redis, { ...failFastRedisOptions(options), lazyConnect: true })
    const publisherHealth = watchRedis(publisher, app.logger, { cache: 'tok', redis: target })
    const subscriberHealth = watchRedis(subscriber, app.logger, { cache: 'tok', redis: target })
    cache.usable = false
    subscriber.on('message', (_channel: string, text: string) => {
      const message = parse(text)
      if (message && message.origin !== origin) cache.invalidate(message.invalidation)
    })
    // Messages sent while the subscription was down are lost: start empty, and only then use the cache again.
    subscriber.on('ready', () => {
      void subscriber
        .subscribe(channel)
        .then(() => {
          cache.invalidate({ all: true })
          cache.usable = true
        })
        .catch((error: unknown) => subscriberHealth.failed(error))
    })
    subscriber.on('close', () => {
      cache.usable = false
    })
    void subscriber.connect().catch(() => {})
    void publisher.connect().catch(() => {})
    publish = async (invalidation) => {
      try {
        // A process that has just started (a CLI command) may not be connected yet.
        await redisReady(publisher, options.timeoutMs)
        await publisher.publish(channel, JSON.stringify({ origin, invalidation }))
      } catch (error) {
        // The other processes' subscriptions are most likely down too, and bypass their caches meanwhile.
        publisherHealth.failed(error)
      }
    }
    closers.push(async () => {
      publisherHealth.stop()
      subscriberHealth.stop()
      cache.usable = false
      publisher.disconnect()
      subscriber.disconnect()
    })
  }

  const tell = async (invalidation: Invalidation) => {
    cache.invalidate(invalidation)
    await publish(invalidation)
  }
  const userModels = cache.userModels
  // Model listeners are global: only writes made in this app's scope concern its cache.
  const stopModelEvents = onAnyModelEvent(async (event, model) => {
    if (maybeCurrentApp() !== app) return
    if (event !== 'updated' && event !== 'deleted' && event !== 'trashed' && event !== 'restored' && event !== 'forceDeleted') return
    const instance = model as Model
    if (instance instanceof personalAccessTokenModel()) await tell({ token: Number(instance.getKey()) })
    else for (const Class of userModels) if (instance instanceof Class) return tell({ user: userKey(Class, instance.getKey()) })
  })
  const stopQueryWrites = onAnyQueryWrite(async (model, write) => {
    if (maybeCurrentApp() !== app) return
    const tokens = model === personalAccessTokenModel() || model.prototype instanceof personalAccessTokenModel()
    if (tokens && write.kind === 'update' && write.columns.every((column) => BOOKKEEPING.has(column))) return
    if (tokens || [...userModels].some((Class) => model === Class || model.prototype instanceof Class)) await tell({ all: true })
  })
  closers.push(async () => {
    stopModelEvents()
    stopQueryWrites()
  })
  return {
    close: async () => {
      for (const close of closers) await close()
    },
  }
}

/**
 * The key of a user's entries: the model's morph name and the user's key,
 * so a `Post` 7 never stands for a `User` 7.
 *
 * @example
 * ```ts
 * userKey(User, 7) // 'User:7'
 * ```
 */
export function userKey(model: typeof Model, key: unknown): string {
  return `${model.morphName ?? model.name}:${String(key)}`
}

function parse(text: string): { origin: string; invalidation: Invalidation } | undefined {
  try {
    const value = JSON.parse(text) as { origin?: unknown; invalidation?: unknown }
    return typeof value.origin === 'string' && isInvalidation(value.invalidation) ? { origin: value.origin, invalidation: value.invalidation } : undefined
  } catch {
    return undefined
  }
}
