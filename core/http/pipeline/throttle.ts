import { KilnError } from '../../support/errors.ts'
import { HttpException } from '../errors/http-exception.ts'
import type { Middleware } from './middleware.ts'
import { Limit, type AttemptResult, type RateLimiters } from './rate-limiter.ts'

/**
 * `throttle:<max>,<minutes>` or `throttle:<limiter name>`: a route's rate
 * limit, else 429 `{"message":"Too many requests."}` with `Retry-After`.
 *
 * - `throttle:60,1`: at most 60 requests a minute per user (per IP for
 *   guests) on this route;
 * - `throttle:login`: the limits of the limiter named `login`
 *   (`RateLimiter.for('login', ...)`), keyed as it says.
 *
 * Counting is atomic (rate-limiter-flexible), so parallel requests never get
 * more through than the limit. Answers carry `X-RateLimit-Limit` and
 * `X-RateLimit-Remaining`.
 *
 * @example
 * ```ts
 * Route.post('/login', handler).middleware(['throttle:login'])
 * Route.get('/search', handler).middleware(['throttle:30,1'])
 * ```
 */
export const throttle: Middleware = async (ctx, next, params) => {
  const limiters = ctx.app.service('limiters')
  let checks: Array<{ name: string; limit: Limit }>
  if (params.length === 1 && !/^\d+$/.test(params[0]!)) {
    const name = params[0]!
    const definition = limiters.definition(name)
    if (!definition)
      throw new KilnError(`No rate limiter is named "${name}": define it with RateLimiter.for('${name}', ...).`, { code: 'E_RATE_LIMITER_UNKNOWN' })
    const limits = await definition(ctx)
    checks = (limits === undefined ? [] : Array.isArray(limits) ? limits : [limits]).map((limit, index) => ({ name: `${name}#${index}`, limit }))
  } else {
    const [max, minutes] = inlineLimit(params)
    const user = ctx.request.user<{ getKey?(): unknown }>()
    const identity = user?.getKey ? `user:${String(user.getKey())}` : `ip:${ctx.request.ip() ?? 'unknown'}`
    checks = [{ name: `route:${ctx.route?.path ?? ctx.request.path}`, limit: Limit.perMinutes(minutes, max).by(identity) }]
  }
  let tightest: AttemptResult | undefined
  for (const { name, limit } of checks) {
    const result = await limiters.attempt(name, limit)
    if (!result.allowed) {
      throw new HttpException(429, 'Too many requests.', {
        headers: { 'retry-after': String(result.retryAfter), 'x-ratelimit-limit': String(result.limit), 'x-ratelimit-remaining': '0' },
      })
    }
    if (!tightest || result.remaining < tightest.remaining) tightest = result
  }
  const response = await next()
  if (tightest) {
    response.headers.set('x-ratelimit-limit', String(tightest.limit))
    response.headers.set('x-ratelimit-remaining', String(tightest.remaining))
  }
  return response
}

/**
 * Checks `throttle` parameters when routes compile, so a typo fails at boot.
 *
 * @example
 * ```ts
 * validateThrottleParams(['60', '1'], limiters) // ok
 * ```
 */
export function validateThrottleParams(params: string[], limiters: RateLimiters): void {
  if (params.length === 1 && !/^\d+$/.test(params[0]!)) {
    if (!limiters.has(params[0]!))
      throw new KilnError(`no rate limiter is named "${params[0]}": define it with RateLimiter.for('${params[0]}', ...) before the routes that use it.`, {
        code: 'E_RATE_LIMITER_UNKNOWN',
      })
    return
  }
  inlineLimit(params)
}

function inlineLimit(params: string[]): [number, number] {
  const max = Number(params[0] ?? 60)
  const minutes = Number(params[1] ?? 1)
  if (!Number.isInteger(max) || max < 1 || !(minutes > 0) || params.length > 2)
    throw new KilnError(`Invalid throttle parameters "${params.join(',')}": use throttle:<max>,<minutes> or throttle:<limiter name>.`, {
      code: 'E_THROTTLE_PARAMS',
    })
  return [max, minutes]
}
