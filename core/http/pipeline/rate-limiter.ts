import type { Redis } from 'ioredis'
import type { RateLimiterAbstract } from 'rate-limiter-flexible'
import type { Application } from '../../application/application.ts'
import { currentApp } from '../../application/current-app.ts'
import { appSlug } from '../../support/app-slug.ts'
import { KilnError } from '../../support/errors.ts'
import { importOptionalPackage } from '../../support/optional-package.ts'
import { failFastRedisOptions, redisReady, redisTarget, redisUrl, watchRedis } from '../../support/redis-health.ts'
import type { HttpContext } from './http-context.ts'

// rate-limiter-flexible is some 36 modules: loaded by the first attempt, not at boot, where routes only name their limits.
let flexible: Promise<typeof import('rate-limiter-flexible')> | undefined
const rateLimiterFlexible = () => (flexible ??= import('rate-limiter-flexible'))

/**
 * A limit: `max` attempts per `seconds`, counted per `key`.
 *
 * @example
 * ```ts
 * Limit.perMinute(5).by(`${email}|${request.ip()}`)
 * ```
 */
export class Limit {
  private constructor(
    readonly max: number,
    readonly seconds: number,
    readonly key = '',
  ) {
    if (!Number.isInteger(max) || max < 1) throw new KilnError(`A rate limit needs a whole number of attempts of at least 1, not ${max}.`)
    if (!(seconds > 0)) throw new KilnError(`A rate limit needs a positive window, not ${seconds} seconds.`)
  }

  /** @example `Limit.perSecond(10)` */
  static perSecond(max: number): Limit {
    return new Limit(max, 1)
  }
  /** @example `Limit.perMinute(60)` */
  static perMinute(max: number): Limit {
    return new Limit(max, 60)
  }
  /** @example `Limit.perMinutes(10, 100)` — 100 attempts per 10 minutes */
  static perMinutes(minutes: number, max: number): Limit {
    return new Limit(max, minutes * 60)
  }
  /** @example `Limit.perHour(1000)` */
  static perHour(max: number): Limit {
    return new Limit(max, 3600)
  }
  /** @example `Limit.perDay(10_000)` */
  static perDay(max: number): Limit {
    return new Limit(max, 86_400)
  }

  /** Counts attempts per this key (an email, a user id, an IP). @example `Limit.perMinute(5).by(request.ip() ?? '')` */
  by(key: string): Limit {
    return new Limit(this.max, this.seconds, key)
  }
}

/** What a named limiter returns for a request: one limit, several, or none (no limit). */
export type LimitDefinition = (ctx: HttpContext) => Limit | Limit[] | undefined | Promise<Limit | Limit[] | undefined>

/** The outcome of an attempt. */
export interface AttemptResult {
  allowed: boolean
  limit: number
  remaining: number
  /** Seconds until the next attempt is allowed (when refused) or the window resets. */
  retryAfter: number
}

/**
 * Rate limiting for the app (`app.service('limiters')`, the `RateLimiter`
 * facade, the `throttle` middleware), on rate-limiter-flexible: counters in
 * memory for one process, or in Redis to share limits across processes
 * (`config/http.ts` `throttle_store` naming a redis store of
 * `config/storage.ts`). Every increment is atomic, so parallel requests can
 * never slip past a limit. If Redis goes down, counting falls back to
 * memory for the outage instead of failing requests.
 *
 * @example
 * ```ts
 * RateLimiter.for('login', ({ request }) => Limit.perMinute(5).by(`${request.input('email')}|${request.ip()}`))
 * Route.post('/login', handler).middleware(['throttle:login'])
 * ```
 */
export class RateLimiters {
  private readonly named = new Map<string, LimitDefinition>()
  private readonly limiters = new Map<string, Promise<RateLimiterAbstract>>()
  private redis?: Promise<Redis | undefined>

  constructor(private readonly app: Application) {}

  /**
   * Defines a named limiter, used as `throttle:<name>`.
   *
   * @example
   * ```ts
   * limiters.for('uploads', ({ request }) => [Limit.perMinute(10).by(request.ip() ?? ''), Limit.perDay(100).by(request.ip() ?? '')])
   * ```
   */
  for(name: string, definition: LimitDefinition): this {
    if (!/^[A-Za-z][\w.-]*$/.test(name)) throw new KilnError(`"${name}" is not a valid limiter name: use letters, digits, ".", "-" and "_".`)
    this.named.set(name, definition)
    return this
  }

  /** The definition of a named limiter. @example `limiters.definition('login')` */
  definition(name: string): LimitDefinition | undefined {
    return this.named.get(name)
  }

  /** True when a limiter has that name. @example `limiters.has('login')` */
  has(name: string): boolean {
    return this.named.has(name)
  }

  /**
   * Counts one attempt against a limit (or `cost` of them: kilobytes of a
   * byte quota, say) and says whether it is allowed. A refused attempt
   * counts too, as in rate-limiter-flexible.
   *
   * @example
   * ```ts
   * const { allowed, retryAfter } = await limiters.attempt('checksum', Limit.perMinute(10).by(ip))
   * await limiters.attempt('upload-kb', Limit.perHour(100 * 1024).by(ip), fileKb)
   * ```
   */
  async attempt(name: string, limit: Limit, cost = 1): Promise<AttemptResult> {
    const limiter = await this.limiter(limit.max, limit.seconds)
    const { RateLimiterRes } = await rateLimiterFlexible()
    try {
      const res = await limiter.consume(`${name}:${limit.key}`, cost)
      return { allowed: true, limit: limit.max, remaining: res.remainingPoints, retryAfter: Math.ceil(res.msBeforeNext / 1000) }
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal
      return { allowed: false, limit: limit.max, remaining: 0, retryAfter: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) }
    }
  }

  /** Forgets the attempts counted for a key (a successful login clearing its failures). @example `await limiters.clear('login', limit)` */
  async clear(name: string, limit: Limit): Promise<void> {
    await (await this.limiter(limit.max, limit.seconds)).delete(`${name}:${limit.key}`)
  }

  /** Closes the Redis connection, if one was opened. @example `await limiters.close()` */
  async close(): Promise<void> {
    const client = await this.redis
    if (client) await client.quit().catch(() => client.disconnect())
  }

  private limiter(points: number, duration: number): Promise<RateLimiterAbstract> {
    const id = `${points}/${duration}`
    // The promise is kept, not the limiter: parallel first attempts must share one counter, and making it awaits
    // (the library's import, the Redis client), so a limiter stored after those awaits would be one per request.
    let limiter = this.limiters.get(id)
    if (!limiter) {
      limiter = (async () => {
        const { RateLimiterMemory, RateLimiterRedis } = await rateLimiterFlexible()
        const memory = new RateLimiterMemory({ points, duration, keyPrefix: 'kiln' })
        const redis = await this.redisClient()
        return redis
          ? new RateLimiterRedis({ storeClient: redis, points, duration, keyPrefix: this.redisPrefix(), insuranceLimiter: memory, rejectIfRedisNotReady: true })
          : memory
      })()
      this.limiters.set(id, limiter)
    }
    return limiter
  }

  private redisClient(): Promise<Redis | undefined> {
    this.redis ??= (async () => {
      const storeName = this.app.config.get<string>('http.throttle_store', 'memory')
      const store = this.app.config.get<{ driver?: string; url?: string; timeout_ms?: number } | undefined>(`storage.stores.${storeName}`)
      if (store?.driver !== 'redis') return undefined
      const url = redisUrl(this.app.env, store.url)
      // Imported only by apps whose limits live in Redis.
      const { Redis: RedisClient } = await importOptionalPackage<typeof import('ioredis')>('ioredis', `The throttle store "${storeName}"`, this.app.root)
      const timeoutMs = store.timeout_ms ?? 1000
      const client = new RedisClient(url, failFastRedisOptions({ timeoutMs }))
      const health = watchRedis(client, this.app.logger, { limiter: storeName, redis: redisTarget(url) })
      // The first requests wait for the connection; if Redis is down, they count in memory (the insurance limiter).
      await redisReady(client, timeoutMs).catch((error: unknown) => health.failed(error))
      return client
    })()
    return this.redis
  }

  /**
   * `<store prefix>:throttle`, the store's prefix being what its other keys
   * use: its own `prefix`, else the app's slug and the store's name. Two
   * apps on one Redis (or a new deploy under another APP_NAME) never share
   * counters.
   */
  private redisPrefix(): string {
    const storeName = this.app.config.get<string>('http.throttle_store', 'memory')
    const prefix = this.app.config.get<string | undefined>(`storage.stores.${storeName}.prefix`) ?? `${appSlug(this.app.config.get('app.name'))}:${storeName}`
    return `${prefix}:throttle`
  }
}

/**
 * The rate limiters of the app in scope: define named limiters in route
 * files, check limits in code.
 *
 * @example
 * ```ts
 * RateLimiter.for('api', ({ request }) => Limit.perMinute(60).by(String(request.user<User>()?.id ?? request.ip())))
 * ```
 */
export const RateLimiter = {
  for(name: string, definition: LimitDefinition): RateLimiters {
    return currentApp().service('limiters').for(name, definition)
  },
  attempt(name: string, limit: Limit): Promise<AttemptResult> {
    return currentApp().service('limiters').attempt(name, limit)
  },
  clear(name: string, limit: Limit): Promise<void> {
    return currentApp().service('limiters').clear(name, limit)
  },
}
