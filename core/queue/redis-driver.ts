import type { Application } from '../application/application.ts'
import { importOptionalPackage } from '../support/optional-package.ts'
import type { JobPayload } from './payload.ts'
import type { PushOptions, QueueDriver } from './queue-driver.ts'
import { backoffFor, isFinalFailure, recordFailure, runJob, type FailedJob } from './run-job.ts'
import { redisUrl } from '../support/redis-health.ts'

type BullQueue = import('bullmq').Queue
type BullWorker = import('bullmq').Worker

/**
 * The `redis` queue, on bullmq (imported only when used): jobs survive
 * restarts and are worked by `kiln queue:work` in any process.
 *
 * @example
 * ```ts
 * connections: { redis: { driver: 'redis', url: env.get('REDIS_URL'), prefix: 'shop' } }
 * ```
 */
export class RedisQueue implements QueueDriver {
  private readonly queues = new Map<string, Promise<BullQueue>>()
  private readonly workers: BullWorker[] = []

  constructor(
    private readonly app: Application,
    private readonly config: { url?: string; prefix?: string },
    private readonly failed: FailedJob[],
  ) {}

  async push(payload: JobPayload, options: PushOptions): Promise<void> {
    const queue = await this.queue(options.queue)
    await queue.add(
      payload.job,
      { ...payload, backoff: options.backoff },
      {
        delay: options.delay > 0 ? options.delay : undefined,
        attempts: Math.max(1, options.tries),
        // bullmq's custom strategy receives the attempt number; Kiln's backoff list maps onto it.
        backoff: { type: 'kiln', delay: 0 },
        removeOnComplete: true,
        removeOnFail: 1000,
      },
    )
  }

  /**
   * Starts a worker on queue names; resolves when it is ready. Stop it with `close()`.
   *
   * @example
   * ```ts
   * await driver.work(['default', 'mail'], { concurrency: 4 })
   * ```
   */
  async work(queues: string[], options: { concurrency?: number } = {}): Promise<void> {
    const { Worker, UnrecoverableError } = await this.bullmq()
    for (const name of queues) {
      const worker = new Worker(
        name,
        async (job) => {
          const payload = { ...(job.data as JobPayload), attempts: job.attemptsMade + 1 }
          const error = await runJob(this.app, payload)
          if (error === undefined) return
          const context = { queue: name, id: `${name}:${job.id}` }
          if (isFinalFailure(error)) {
            await recordFailure(this.app, payload, error, this.failed, context)
            // bullmq moves it to the failed set without the tries left: `kiln queue:retry` brings it back after the fix.
            throw new UnrecoverableError(error.message)
          }
          if (payload.attempts >= (job.opts.attempts ?? 1)) await recordFailure(this.app, payload, error, this.failed, context)
          throw error
        },
        {
          connection: this.connectionOptions(),
          prefix: this.prefix(),
          concurrency: options.concurrency ?? 1,
          // The job carries its own backoff, so any worker process applies the dispatcher's schedule.
          settings: {
            backoffStrategy: (attemptsMade: number, _type?: string, _err?: Error, job?: { data?: { backoff?: number | number[] } }) =>
              backoffFor(job?.data?.backoff ?? 0, attemptsMade),
          },
        },
      )
      worker.on('error', (error) => this.app.logger.error({ err: error }, 'Queue worker error'))
      await worker.waitUntilReady()
      this.workers.push(worker)
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()))
    for (const queue of this.queues.values()) await (await queue).close()
  }

  /**
   * The bullmq queue of one name on this connection (what `queue:failed`,
   * `queue:retry` and `queue:flush` read: bullmq keeps failed jobs in Redis).
   *
   * @example
   * ```ts
   * const failed = await (await driver.bullQueue<import('bullmq').Queue>('default')).getFailed()
   * ```
   */
  bullQueue<Queue = unknown>(name: string): Promise<Queue> {
    // Typed by the caller (bullQueue<Queue>): the declaration files name no bullmq type, an optional peer.
    return this.queue(name) as Promise<unknown> as Promise<Queue>
  }

  /** The names of the queues of this connection that hold failed jobs. @example `await driver.queuesWithFailures() // ['default', 'mail']` */
  async queuesWithFailures(): Promise<string[]> {
    // bullmq's client type spans Redis and Cluster; a queue connection is one server, so the plain commands apply.
    const client = (await (
      await this.queue('default')
    ).client) as unknown as {
      scan(cursor: string, ...args: Array<string | number>): Promise<[string, string[]]>
      zcard(key: string): Promise<number>
    }
    const prefix = `${this.prefix()}:`
    const names = new Set<string>()
    let cursor = '0'
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*:failed`, 'COUNT', 500)
      cursor = next
      for (const key of keys) if ((await client.zcard(key)) > 0) names.add(key.slice(prefix.length, -':failed'.length))
    } while (cursor !== '0')
    return [...names].sort()
  }

  private queue(name: string): Promise<BullQueue> {
    let queue = this.queues.get(name)
    if (!queue) {
      queue = this.bullmq().then(({ Queue }) => new Queue(name, { connection: this.connectionOptions(), prefix: this.prefix() }))
      this.queues.set(name, queue)
    }
    return queue
  }

  /** bullmq, from the app's own node_modules (an optional package). */
  private bullmq(): Promise<typeof import('bullmq')> {
    return importOptionalPackage<typeof import('bullmq')>('bullmq', 'The redis queue connection', this.app.root)
  }

  private connectionOptions(): { url: string; maxRetriesPerRequest: null } {
    return { url: redisUrl(this.app.env, this.config.url), maxRetriesPerRequest: null } as never
  }

  private prefix(): string {
    return this.config.prefix ?? 'kiln'
  }
}
