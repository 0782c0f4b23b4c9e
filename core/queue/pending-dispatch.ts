import type { Application } from '../application/application.ts'
import { afterCommit } from '../database/transaction-context.ts'
import type { Job, JobClass } from './job.ts'

/**
 * A job on its way to the queue: chain options, then it is sent on the next
 * microtask (or when awaited, whichever comes first).
 *
 * @example
 * ```ts
 * await ExportReport.dispatch(report).onQueue('exports').onConnection('redis').delay(5000)
 * SendPing.dispatch().afterCommit()  // waits for the surrounding transaction
 * ```
 */
export class PendingDispatch implements PromiseLike<void> {
  private queueName?: string
  private connectionName?: string
  private delayMs = 0
  private waitForCommit = false
  private sent?: Promise<void>

  constructor(
    private readonly app: Application,
    readonly job: Job,
  ) {
    queueMicrotask(() => void this.send().catch((error) => app.logger.error({ err: error }, 'Dispatching a job failed')))
  }

  /** @example `.onQueue('mail')` */
  onQueue(name: string): this {
    this.queueName = name
    return this
  }
  /** @example `.onConnection('redis')` */
  onConnection(name: string): this {
    this.connectionName = name
    return this
  }
  /** Milliseconds before the job may run. @example `.delay(60_000)` */
  delay(ms: number): this {
    this.delayMs = Math.max(0, ms)
    return this
  }
  /** Sends only after the surrounding transaction commits; dropped on rollback. @example `.afterCommit()` */
  afterCommit(): this {
    this.waitForCommit = true
    return this
  }

  then<R1 = void, R2 = never>(
    onfulfilled?: ((value: void) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): PromiseLike<R1 | R2> {
    return this.send().then(onfulfilled, onrejected)
  }

  private send(): Promise<void> {
    if (this.sent) return this.sent
    const Class = this.job.constructor as JobClass
    const manager = this.app.service('queue')
    const push = () =>
      manager.push(this.job, {
        connection: this.connectionName ?? Class.connection,
        queue: this.queueName ?? Class.queue ?? 'default',
        delay: this.delayMs,
      })
    if (this.waitForCommit) {
      afterCommit(() => push().catch((error) => this.app.logger.error({ err: error }, 'Dispatching a job after commit failed')))
      // Resolves right away: the push happens at commit, or never on rollback; awaiting it inside the transaction must not wait for the commit.
      return (this.sent = Promise.resolve())
    }
    return (this.sent = push())
  }
}
