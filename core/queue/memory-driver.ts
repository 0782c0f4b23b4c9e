import type { Application } from '../application/application.ts'
import type { JobPayload } from './payload.ts'
import type { PushOptions, QueueDriver } from './queue-driver.ts'
import { backoffFor, isFinalFailure, recordFailure, runJob, type FailedJob } from './run-job.ts'

/**
 * The `memory` queue (default) and `sync`. Memory runs each job on the event
 * loop after dispatch returns, with retries and backoff; `flush()` waits for
 * everything pending, including jobs that jobs dispatch. Sync runs the job
 * before `dispatch` resolves.
 *
 * @example
 * ```ts
 * connections: { memory: { driver: 'memory' }, sync: { driver: 'sync' } }
 * ```
 */
export class InProcessQueue implements QueueDriver {
  private readonly pending = new Set<Promise<void>>()

  constructor(
    private readonly app: Application,
    private readonly failed: FailedJob[],
    private readonly sync: boolean,
  ) {}

  async push(payload: JobPayload, options: PushOptions): Promise<void> {
    if (this.sync && options.delay <= 0) return this.attempt(payload, options)
    const task = new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, options.delay))).then(() => this.attempt(payload, options))
    this.track(task)
  }

  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending])
  }

  private async attempt(payload: JobPayload, options: PushOptions): Promise<void> {
    const current = { ...payload, attempts: payload.attempts + 1 }
    const error = await runJob(this.app, current)
    if (error === undefined) return
    if (current.attempts < options.tries && !isFinalFailure(error)) {
      const retry = new Promise<void>((resolve) => setTimeout(resolve, backoffFor(options.backoff, current.attempts))).then(() =>
        this.attempt(current, options),
      )
      this.track(retry)
      return
    }
    await recordFailure(this.app, current, error, this.failed)
  }

  private track(task: Promise<void>): void {
    const tracked = task.catch((error) => this.app.logger.error({ err: error }, 'Queue task crashed'))
    this.pending.add(tracked)
    void tracked.finally(() => this.pending.delete(tracked))
  }
}
