import { requirePackage, type Application } from '../../core/index.ts'
import type { TokConfig } from './tok-config.ts'
import { TokenCache } from './token-cache.ts'
import { syncTokenCache } from './token-cache-sync.ts'

const caches = new WeakMap<Application, TokenCache>()

/**
 * The app's verified-token cache, or undefined when `tok.cache.enabled` is off.
 *
 * @example
 * ```ts
 * tokenCache(app)?.get(id, hash)
 * ```
 */
export function tokenCache(app: Application): TokenCache | undefined {
  return caches.get(app)
}

/**
 * Sets up the cache when `tok.cache.enabled`: local invalidation, and Redis
 * when `tok.cache.redis` is set, from boot on, so that a process that
 * revokes tokens (a CLI command too) tells the others even if it never
 * served a token request. Closed with the app.
 *
 * @example
 * ```ts
 * await startTokenCache(app)
 * ```
 */
export async function startTokenCache(app: Application): Promise<void> {
  const config = app.config.get<TokConfig>('tok').cache
  if (!config.enabled) return
  // Without Redis, a token revoked through one process stays valid in the others' caches for up to `ttl`.
  app.service('processState').declare({
    what: `the verified-token cache (config/tok.ts \`cache\`)${config.redis ? ', invalidated through Redis' : ', where a revocation reaches only the process that made it'}`,
    scope: config.redis ? 'network' : 'process',
    setting: 'set `cache.redis` to a Redis URL (TOK_CACHE_REDIS in the starter), or turn the cache off',
  })
  if (config.redis) {
    requirePackage('ioredis', 'The token cache shared across processes (tok.cache.redis)', app.root)
    // Revocations reach the other processes through this Redis: the readiness answer (GET /up?ready) names it.
    app.service('health').redis('tok.cache', config.redis, { timeoutMs: config.redis_timeout_ms })
  }
  const cache = new TokenCache(config.max)
  const sync = await syncTokenCache(app, cache, { redis: config.redis, timeoutMs: config.redis_timeout_ms })
  caches.set(app, cache)
  app.terminating(async () => {
    caches.delete(app)
    await sync.close()
  })
}
