import { currentApp } from '../application/current-app.ts'
import { PendingDispatch } from './pending-dispatch.ts'

/**
 * A unit of work for the queue: public properties are its JSON payload
 * (models travel as their key and are reloaded), `handle()` does the work.
 *
 * @example
 * ```ts
 * class SendWelcome extends Job {
 *   static tries = 3
 *   static backoff = [1000, 5000]
 *   constructor(public user: User) { super() }
 *   async handle() { await mailer.send(this.user.email, 'Welcome!') }
 * }
 * await SendWelcome.dispatch(user).onQueue('mail')
 * ```
 */
export abstract class Job {
  /** Attempts before the job counts as failed. */
  static tries = 1
  /** Milliseconds between attempts: one value, or one per retry. */
  static backoff: number | number[] = 0
  /** The queue name (default `default`). */
  static queue?: string
  /** The queue connection (default: config/queue.ts default). */
  static connection?: string
  /** The name workers find the class by; defaults to the class name. */
  static jobName?: string

  abstract handle(): unknown | Promise<unknown>

  /** Called once the job has used all its tries. @example `failed(error) { log(error) }` */
  failed?(error: unknown): unknown | Promise<unknown>

  /**
   * Constructs the job and queues it; chain options before the microtask
   * that sends it (or `await` the result).
   *
   * @example
   * ```ts
   * await ResizeImage.dispatch(upload.id).onConnection('redis').delay(1000)
   * ```
   */
  static dispatch<T extends Job, A extends unknown[]>(this: new (...args: A) => T, ...args: A): PendingDispatch {
    return new PendingDispatch(currentApp(), new this(...args))
  }
}

/** A job class. */
export type JobClass = (abstract new (...args: any[]) => Job) & Omit<typeof Job, 'prototype'>
