import type { Application } from '../application/application.ts'
import { currentApp } from '../application/current-app.ts'
import { DriverManager } from '../manager/driver-manager.ts'
import type { Job, JobClass } from './job.ts'
import { InProcessQueue } from './memory-driver.ts'
import { QueueFake } from './queue-fake.ts'
import { JobRegistry } from './job-registry.ts'
import { serializeJob } from './payload.ts'
import type { QueueDriver } from './queue-driver.ts'
import { RedisQueue } from './redis-driver.ts'
import type { FailedJob } from './run-job.ts'

/**
 * The app's queues: connections from `config/queue.ts` (`sync`, `memory`,
 * `redis`, or an app's own through `connections.extend`), and the list of
 * jobs that failed for good.
 *
 * @example
 * ```ts
 * const queue = app.service('queue')
 * await queue.flush()
 * queue.failed() // [{ job: 'SendWelcome', error: '...', ... }]
 * ```
 */
export class QueueManager {
  readonly connections: DriverManager<QueueDriver, Application>
  /** The app's job classes by name: what a worker rebuilds queued jobs from (see {@link register}). */
  readonly jobs: JobRegistry
  private readonly failures: FailedJob[] = []
  private faked?: QueueFake

  constructor(app: Application) {
    this.jobs = new JobRegistry(app.root)
    this.connections = new DriverManager<QueueDriver, Application>(app, app.config, { kind: 'queue', file: 'queue' })
    this.connections.extend('sync', (app) => new InProcessQueue(app, this.failures, true))
    this.connections.extend('memory', (app) => new InProcessQueue(app, this.failures, false))
    this.connections.extend<{ url?: string; prefix?: string }>('redis', (app, { config }) => new RedisQueue(app, config, this.failures))
  }

  /** Queues a job instance. @example `await queue.push(new SendWelcome(user), { queue: 'mail' })` */
  async push(job: Job, options: { connection?: string; queue?: string; delay?: number } = {}): Promise<void> {
    const Class = job.constructor as JobClass
    if (this.faked?.intercepts(job)) {
      this.faked.pushed.push({ job, queue: options.queue ?? Class.queue ?? 'default', connection: options.connection, delay: options.delay ?? 0 })
      return
    }
    // Known from here on in this process too, so a memory queue never needs the class registered by hand.
    this.jobs.register(Class)
    await this.connections.connection(options.connection).push(serializeJob(job), {
      queue: options.queue ?? Class.queue ?? 'default',
      delay: options.delay ?? 0,
      tries: Class.tries ?? 1,
      backoff: Class.backoff ?? 0,
    })
  }

  /**
   * Keeps pushed jobs (every job, or those of `only`) instead of queueing them, for assertions. Until `restore()`.
   *
   * @example
   * ```ts
   * const fake = app.service('queue').fake()
   * fake.assertNothingPushed()
   * ```
   */
  fake(only?: JobClass[]): QueueFake {
    return (this.faked = new QueueFake(only))
  }

  /** Ends `fake()`: jobs are queued again. @example `queue.restore()` */
  restore(): void {
    this.faked = undefined
  }

  /** Awaits every pending in-process job (tests). @example `await queue.flush()` */
  async flush(): Promise<void> {
    for (const driver of this.connections.resolved().values()) await driver.flush?.()
  }

  /** Jobs that used all their tries. @example `queue.failed().length` */
  failed(): readonly FailedJob[] {
    return this.failures
  }

  /**
   * Makes job classes known by name to every process of the app, workers
   * included. A plugin that queues a job of its own calls it in its
   * `register()`, which every process runs; the app's own jobs in
   * `app/jobs/` need no call.
   *
   * @example
   * ```ts
   * definePlugin({ name: 'invoices', register(app) { app.service('queue').register(SendInvoice) } })
   * ```
   */
  register(...jobs: JobClass[]): void {
    this.jobs.register(...jobs)
  }

  /** Closes connections and workers. @example `await queue.close()` */
  async close(): Promise<void> {
    await this.connections.purge()
  }
}

/**
 * The queue of the app in scope.
 *
 * @example
 * ```ts
 * await Queue.flush()
 * const fake = Queue.fake() // in tests
 * fake.assertPushed(SendWelcome)
 * ```
 */
export const Queue = {
  /** Keeps pushed jobs for assertions instead of queueing them (tests). @example `const fake = Queue.fake()` */
  fake: (only?: JobClass[]) => currentApp().service('queue').fake(only),
  restore: () => currentApp().service('queue').restore(),
  flush: () => currentApp().service('queue').flush(),
  failed: () => currentApp().service('queue').failed(),
  push: (job: Job, options?: { connection?: string; queue?: string; delay?: number }) => currentApp().service('queue').push(job, options),
  register: (...jobs: JobClass[]) =>
    currentApp()
      .service('queue')
      .register(...jobs),
}
