import type { Redis } from 'ioredis'
import { importOptionalPackage } from '../support/optional-package.ts'
import { failFastRedisOptions } from '../support/redis-health.ts'

/**
 * Redis clients for readiness pings, one per address and timeout, made at
 * the first ping. They fail fast (no offline queue, one attempt, the
 * timeout to connect and to answer) and keep reconnecting in the
 * background, so a probe during an outage answers within the timeout and
 * one after it succeeds. Their own errors are swallowed: the readiness
 * registry logs a check going down once.
 *
 * @example
 * ```ts
 * const pings = new RedisPings(app.root)
 * await pings.ping('redis://127.0.0.1:6379', 1000) // throws when Redis does not answer
 * ```
 */
export class RedisPings {
  private readonly clients = new Map<string, Promise<Redis>>()
  private closed = false

  constructor(private readonly root: string) {}

  /** Resolves once Redis answered PING, rejects when it did not within `timeoutMs`. @example `await pings.ping(url, 1000)` */
  async ping(url: string, timeoutMs: number): Promise<void> {
    const client = await this.client(url, timeoutMs)
    if (client.status !== 'ready') await connected(client, timeoutMs)
    await client.ping()
  }

  /** Closes every client. @example `await pings.close()` */
  async close(): Promise<void> {
    this.closed = true
    const clients = await Promise.allSettled(this.clients.values())
    this.clients.clear()
    for (const result of clients) if (result.status === 'fulfilled') result.value.disconnect()
  }

  private client(url: string, timeoutMs: number): Promise<Redis> {
    if (this.closed) return Promise.reject(new Error('The application is closing.'))
    const key = `${timeoutMs} ${url}`
    let client = this.clients.get(key)
    if (!client) {
      client = importOptionalPackage<typeof import('ioredis')>('ioredis', 'A Redis readiness check', this.root).then(({ Redis: RedisClient }) => {
        // connected() bounds the wait for a connection itself (and tells a slow Redis from a busy event loop): ioredis's
        // own connect timeout is only the backstop.
        const redis = new RedisClient(url, { ...failFastRedisOptions({ timeoutMs }), connectTimeout: timeoutMs * 3, lazyConnect: true })
        // Each failed attempt emits one; ioredis would print it as unhandled.
        redis.on('error', () => {})
        return redis
      })
      // A failed import is not kept: the next probe tries again (and names the missing package).
      void client.catch(() => this.clients.delete(key))
      this.clients.set(key, client)
    }
    return client
  }
}

/**
 * Resolves when the client is connected; rejects at its first connection
 * error or after `timeoutMs`. A timer that fires late (by more than a
 * tenth of its time, or 50 ms) means this process held the event loop (the
 * first probe loads the database driver meanwhile), and the connection's
 * own events may be waiting behind it: it is given one more `timeoutMs`, so
 * a cold first probe does not report a Redis that is up.
 */
function connected(client: Redis, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout
    let extended = false
    const done = (error?: unknown) => {
      clearTimeout(timer)
      client.off('ready', onReady)
      client.off('error', onError)
      if (error === undefined) resolve()
      else reject(error instanceof Error ? error : new Error(String(error)))
    }
    const onReady = () => done()
    const onError = (error: unknown) => done(error ?? new Error('Redis connection failed'))
    const arm = () => {
      const armed = performance.now()
      timer = setTimeout(() => {
        if (!extended && performance.now() - armed > timeoutMs + Math.max(50, timeoutMs / 10)) {
          extended = true
          arm()
        } else done(new Error(`Redis did not connect within ${timeoutMs} ms`))
      }, timeoutMs)
    }
    arm()
    client.on('ready', onReady)
    client.on('error', onError)
    if (client.status === 'wait') client.connect().catch(() => {})
  })
}
