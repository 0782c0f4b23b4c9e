import type { Application } from '../../application/application.ts'
import { currentApp, runWithApp } from '../../application/current-app.ts'
import { currentHttpContext, runWithContext, type HttpContext } from './http-context.ts'

/** Work to do once the response has gone: mail, a webhook, a cache warm-up. Its promise, if any, is awaited. */
export type DeferredTask = () => unknown

/** Where a request keeps the promise of its deferred tasks, once they started (read by `settled(request)`). */
const RUNNING = Symbol('kiln.deferred.running')
type Carrier = Request & { [RUNNING]?: Promise<void> }

/**
 * The app's deferred tasks (`app.service('http').deferred`): each runs
 * after the response it was deferred in has been handed to the server, in
 * the order deferred, within that request's context. A task that fails is
 * logged once through the app's logger and never reaches the client.
 * `app.close()` (and so `kiln serve` stopping) waits for every task still
 * running, after the server stopped taking requests.
 *
 * @example
 * ```ts
 * const tasks = app.service('http').deferred
 * tasks.run([() => Mail.to(user).send(new Welcome(user))])
 * await tasks.settled()
 * ```
 */
export class DeferredTasks {
  private readonly pending = new Set<Promise<void>>()

  constructor(private readonly app: Application) {}

  /**
   * Starts `tasks` on the next turn of the event loop (never inside the
   * caller's turn: the response is written first), inside `ctx` when given.
   *
   * @example
   * ```ts
   * app.service('http').deferred.run([() => audit.flush()])
   * ```
   */
  run(tasks: readonly DeferredTask[], ctx?: HttpContext): Promise<void> {
    const done = (async () => {
      await new Promise<void>((resolve) => setImmediate(resolve))
      for (const task of tasks) {
        try {
          await (ctx ? runWithContext(ctx, task) : runWithApp(this.app, task))
        } catch (error) {
          this.app.logger.error({ err: error, path: ctx?.request.path }, 'A deferred task failed')
        }
      }
    })()
    this.pending.add(done)
    void done.finally(() => this.pending.delete(done))
    if (ctx) {
      const request = ctx.event.req as unknown as Carrier
      const before = request[RUNNING]
      request[RUNNING] = before ? Promise.all([before, done]).then(() => undefined) : done
    }
    return done
  }

  /**
   * Resolves once deferred tasks have finished: those of `request` (and any
   * they deferred in turn), or, without one, every task of the app.
   *
   * @example
   * ```ts
   * const response = await app.request(request)
   * await app.service('http').deferred.settled(request)
   * ```
   */
  async settled(request?: Request): Promise<void> {
    if (request) {
      const carrier = request as Carrier
      let running = carrier[RUNNING]
      while (running) {
        await running
        running = carrier[RUNNING] === running ? undefined : carrier[RUNNING]
      }
      return
    }
    while (this.pending.size > 0) await Promise.all([...this.pending])
  }
}

/**
 * Runs `task` after the response of the request being served: the client
 * gets its answer without waiting for it. Outside a request (a job, a
 * command) it runs on the next turn of the event loop. Either way
 * `app.close()` waits for it, and a failure is logged, never thrown.
 *
 * @example
 * ```ts
 * import { defer } from 'kiln-framework'
 * import { Mail } from 'kiln-framework/mail'
 *
 * defer(() => Mail.to(user).send(new Welcome(user)))
 * ```
 */
export function defer(task: DeferredTask): void {
  const ctx = currentHttpContext()
  if (ctx) ctx.defer(task)
  else void currentApp().service('http').deferred.run([task])
}
