import type { RedisClient as Redis } from './optional-peer-types.ts'
import { HttpException } from '../http/errors/http-exception.ts'

/** The least a logger must do for {@link watchRedis}. */
interface OutageLogger {
  warn(context: Record<string, unknown>, message: string): void
  info(context: Record<string, unknown>, message: string): void
}

/**
 * A service this request needs (Redis, a database) cannot be reached: 503
 * `{"message": ...}` for the client, with nothing about the service's
 * address in the answer.
 *
 * @example
 * ```ts
 * throw new ServiceUnavailableError('The session store is unavailable; try again shortly.')
 * ```
 */
export class ServiceUnavailableError extends HttpException {
  constructor(message = 'A service this request needs is unavailable; try again shortly.', options: { cause?: unknown; retryAfter?: number } = {}) {
    super(503, message, { headers: { 'retry-after': String(options.retryAfter ?? 5) } })
    this.name = 'ServiceUnavailableError'
    if (options.cause !== undefined) (this as { cause?: unknown }).cause = options.cause
  }
}

/** Options of a Redis client that fails fast while its server is down and recovers by itself. */
export interface FailFastOptions {
  /** How long a command, or waiting for a connection, may take. */
  timeoutMs: number
}

/**
 * ioredis options for a client that never parks commands while Redis is
 * down (no offline queue, one attempt, a command timeout) and keeps
 * reconnecting in the background (at most a second apart), so requests fail
 * within `timeoutMs` during an outage and succeed as soon as it ends.
 *
 * A Redis that hangs (connection open, no answers) is treated like one that
 * is gone: `socketTimeout` drops a connection that sends nothing back within
 * `timeoutMs`, so the outage is logged once, ioredis reconnects, and `ready`
 * marks its end. Commands are not resent on the new connection: their
 * callers already got their 503.
 *
 * @example
 * ```ts
 * const redis = new Redis(url, failFastRedisOptions({ timeoutMs: 1000 }))
 * ```
 */
export function failFastRedisOptions({ timeoutMs }: FailFastOptions) {
  return {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    retryStrategy: (attempt: number) => Math.min(attempt * 100, 1_000),
  }
}

/**
 * Logs a Redis client's outages once each: one warning when the connection
 * is lost or a command fails, one note when it is back (ioredis reports every
 * reconnect attempt; a log line per attempt helps nobody). Also keeps ioredis
 * from printing unhandled `error` events. Returns `failed(error)` for
 * command failures seen by the caller.
 *
 * @example
 * ```ts
 * const health = watchRedis(redis, app.logger, { store: 'sessions', redis: redisTarget(url) })
 * await redis.get('x').catch((error) => { health.failed(error); throw error })
 * ```
 */
export function watchRedis(client: Redis, logger: OutageLogger, context: Record<string, unknown>): RedisHealth {
  let down = false
  let closing = false
  const failed = (error?: unknown) => {
    if (down || closing) return
    down = true
    logger.warn(
      { ...context, ...(error ? { err: error instanceof Error ? error.message : String(error) } : {}) },
      'Redis is unreachable; requests that need it get 503 until it is back',
    )
  }
  client.on('error', failed)
  client.on('close', () => failed())
  client.on('ready', () => {
    if (!down) return
    down = false
    logger.info(context, 'Redis is reachable again')
  })
  return {
    failed,
    stop: () => {
      closing = true
    },
    get down() {
      return down
    },
  }
}

/** What {@link watchRedis} returns. */
export interface RedisHealth {
  /** Reports a failed command: logs the outage if it is news. */
  failed(error?: unknown): void
  /** Call before closing the client on purpose, so the close is not logged as an outage. */
  stop(): void
  /** True during an outage. */
  readonly down: boolean
}

/**
 * Resolves once the client is connected, or rejects after `timeoutMs`: the
 * wait a request may spend on a Redis that is (re)connecting.
 *
 * @example
 * ```ts
 * await redisReady(redis, 1000)
 * ```
 */
export function redisReady(client: Redis, timeoutMs: number): Promise<void> {
  if (client.status === 'ready') return Promise.resolve()
  if (client.status === 'wait') void client.connect().catch(() => {})
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Redis did not connect within ${timeoutMs} ms.`)), timeoutMs)
    void nextReady(client).then(() => {
      clearTimeout(timer)
      resolve()
    })
  })
}

// One 'ready' listener per client however many requests wait on it (a listener each would pile up during an outage).
const waiting = new WeakMap<Redis, Promise<void>>()

function nextReady(client: Redis): Promise<void> {
  let ready = waiting.get(client)
  if (!ready) {
    ready = new Promise<void>((resolve) =>
      client.once('ready', () => {
        waiting.delete(client)
        resolve()
      }),
    )
    waiting.set(client, ready)
  }
  return ready
}

/**
 * A Redis URL for logs and messages: scheme, host and port, never the
 * credentials.
 *
 * @example
 * ```ts
 * redisTarget('redis://:secret@cache:6380/2') // 'redis://cache:6380'
 * ```
 */
export function redisTarget(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.protocol}//${parsed.hostname}:${parsed.port || '6379'}`
  } catch {
    return 'Redis'
  }
}

/**
 * The Redis a store, queue or broadcaster uses: its own `url` when its
 * config gives one, else `REDIS_URL` as the app reads it (its `.env` too,
 * not only the process's variables), else the local Redis. Every Redis user
 * of the kernel and the drivers resolves its address here, so none of them
 * reads `REDIS_URL` another way.
 *
 * @example
 * ```ts
 * redisUrl(app.env, config.url) // 'redis://10.0.0.6:6379'
 * ```
 */
export function redisUrl(env: { readonly unchecked: { get(key: string, fallback: string): string } }, url?: string): string {
  return url ?? env.unchecked.get('REDIS_URL', 'redis://127.0.0.1:6379')
}
