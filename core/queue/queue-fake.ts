import { AssertionError } from 'node:assert'
import type { Job, JobClass } from './job.ts'

/** A job class whose instances are `J`. */
type ClassOf<J extends Job> = JobClass & (abstract new (...args: any[]) => J)

/** One job the fake kept instead of queueing it. */
export interface PushedJob<J extends Job = Job> {
  job: J
  queue: string
  connection?: string
  delay: number
}

/**
 * What `Queue.fake()` returns: jobs pushed while the queue is faked are kept
 * here, not queued or run, for assertions (as Laravel's `Queue::fake()`).
 *
 * @example
 * ```ts
 * const fake = Queue.fake()
 * await SendWelcome.dispatch(user)
 * fake.assertPushed(SendWelcome, (job) => job.userId === user.id)
 * fake.assertNotPushed(ResizeImage)
 * ```
 */
export class QueueFake {
  readonly pushed: PushedJob[] = []

  constructor(readonly only?: JobClass[]) {}

  /** True when this fake keeps the job (every job, or those of `only`). @internal */
  intercepts(job: Job): boolean {
    return !this.only || this.only.some((Class) => job instanceof Class)
  }

  /** The kept jobs of a class, optionally matching a predicate. @example `fake.jobs(SendWelcome)` */
  jobs<J extends Job>(Class: ClassOf<J>, predicate?: (job: J, pushed: PushedJob<J>) => boolean): PushedJob<J>[] {
    return this.pushed.filter((p): p is PushedJob<J> => p.job instanceof Class && (!predicate || predicate(p.job as J, p as PushedJob<J>)))
  }

  /**
   * A job of the class was pushed: any, one matching `predicate`, or exactly `times` of them.
   *
   * @example
   * ```ts
   * fake.assertPushed(SendWelcome)
   * fake.assertPushed(SendWelcome, 2)
   * fake.assertPushed(SendWelcome, (job) => job.userId === 1)
   * ```
   */
  assertPushed<J extends Job>(Class: ClassOf<J>, predicateOrTimes?: number | ((job: J, pushed: PushedJob<J>) => boolean)): void {
    if (typeof predicateOrTimes === 'number') {
      const count = this.jobs(Class).length
      if (count !== predicateOrTimes)
        throw new AssertionError({
          message: `Expected ${Class.name} to be pushed ${predicateOrTimes} times, got ${count}.${this.summary()}`,
          actual: count,
          expected: predicateOrTimes,
        })
      return
    }
    if (this.jobs(Class, predicateOrTimes).length === 0)
      throw new AssertionError({ message: `Expected ${Class.name} to be pushed${predicateOrTimes ? ' matching the predicate' : ''}.${this.summary()}` })
  }

  /** A job of the class was pushed onto the named queue. @example `fake.assertPushedOn('mail', SendWelcome)` */
  assertPushedOn<J extends Job>(queue: string, Class: ClassOf<J>, predicate?: (job: J) => boolean): void {
    if (this.jobs(Class, (job, pushed) => pushed.queue === queue && (!predicate || predicate(job))).length === 0)
      throw new AssertionError({ message: `Expected ${Class.name} to be pushed on the "${queue}" queue.${this.summary()}` })
  }

  /** No job of the class (matching `predicate`) was pushed. @example `fake.assertNotPushed(ResizeImage)` */
  assertNotPushed<J extends Job>(Class: ClassOf<J>, predicate?: (job: J) => boolean): void {
    const found = this.jobs(Class, predicate && ((job) => predicate(job)))
    if (found.length > 0) throw new AssertionError({ message: `Did not expect ${Class.name} to be pushed, it was ${found.length} time(s).` })
  }

  /** Nothing was pushed. @example `fake.assertNothingPushed()` */
  assertNothingPushed(): void {
    if (this.pushed.length > 0) throw new AssertionError({ message: `Expected no jobs to be pushed.${this.summary()}` })
  }

  private summary(): string {
    if (this.pushed.length === 0) return ' Nothing was pushed.'
    return ` Pushed: ${this.pushed.map((p) => `${p.job.constructor.name} (queue "${p.queue}")`).join(', ')}.`
  }
}
