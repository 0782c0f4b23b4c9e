import { createHash } from 'node:crypto'
import type { StorageManager } from '../storage/storage-manager.ts'
import { HttpException } from './http-exception.ts'
import type { Middleware } from './middleware.ts'

interface Window {
  count: number
  resetAt: number
}

/**
 * `throttle:<max>,<minutes>`: at most `max` requests per `minutes` per user
 * (or per IP for guests) on a route, else 429 `{"message":"Too many
 * requests."}` with `Retry-After`. Counters live in the `http.throttle_store`
 * storage store (memory by default; a redis store shares limits across processes).
 *
 * @example
 * ```ts
 * Route.post('/login', handler).middleware(['throttle:5,1'])
 * ```
 */
export const throttle: Middleware = async (ctx, next, params) => {
  const max = Number(params[0] ?? 60)
  const minutes = Number(params[1] ?? 1)
  if (!Number.isInteger(max) || max < 1 || !(minutes > 0)) throw new Error(`Invalid throttle parameters "${params.join(',')}": use throttle:<max>,<minutes>.`)
  const user = ctx.request.user<{ getKey?(): unknown }>()
  const identity = user?.getKey ? `user:${String(user.getKey())}` : `ip:${ctx.request.ip() ?? 'unknown'}`
  const key = `throttle:${createHash('sha256').update(`${ctx.route?.path ?? ctx.request.path}|${identity}`).digest('hex').slice(0, 32)}`
  const store = ctx.app.service<StorageManager>('storage').store(ctx.app.config.get<string>('http.throttle_store', 'memory'))
  const now = Date.now()
  const stored = (await store.getItem<Window>(key)) as Window | null
  const window = stored && stored.resetAt > now ? stored : { count: 0, resetAt: now + minutes * 60_000 }
  window.count++
  await store.setItem(key, window, { ttl: Math.ceil((window.resetAt - now) / 1000) })
  const remaining = Math.max(0, max - window.count)
  if (window.count > max) {
    const retryAfter = String(Math.max(1, Math.ceil((window.resetAt - now) / 1000)))
    throw new HttpException(429, 'Too many requests.', { headers: { 'retry-after': retryAfter, 'x-ratelimit-limit': String(max), 'x-ratelimit-remaining': '0' } })
  }
  const response = await next()
  response.headers.set('x-ratelimit-limit', String(max))
  response.headers.set('x-ratelimit-remaining', String(remaining))
  return response
}
