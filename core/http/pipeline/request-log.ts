import { describeError } from '../errors/error-renderer.ts'
import type { HttpContext } from './http-context.ts'
import type { Middleware } from './middleware.ts'

let nextId = 0

/** What a handler told the request log about an answer whose status hides a failure (`logStatus`, `logAfter`). */
interface LogNote {
  status?: number
  after?: Promise<unknown>
}

const notes = new WeakMap<HttpContext, LogNote>()

/**
 * Tells the request log the status a part of this request's answer failed
 * with, when the answer's own status hides it: a bundled answer (200)
 * whose one part crashed (500) is logged with 500, at `error`, as the
 * browser shows it. The highest status reported wins; a lower one than the
 * response's changes nothing. The error itself is logged by whoever caught
 * it, once.
 *
 * @example
 * ```ts
 * catch (error) { logStatus(ctx, 500); logger.error({ err: error }, 'A part failed'); return { error: { status: 500 } } }
 * ```
 */
export function logStatus(ctx: HttpContext, status: number): void {
  const note = notes.get(ctx) ?? {}
  note.status = Math.max(note.status ?? 0, status)
  notes.set(ctx, note)
}

/**
 * Holds the request log's entry for this request until `done` settles: a
 * streamed answer whose work goes on after its response began (and may
 * still fail, `logStatus`) is logged when it ends, with its full time.
 *
 * @example
 * ```ts
 * logAfter(ctx, work.catch(() => undefined))
 * return new Response(stream)
 * ```
 */
export function logAfter(ctx: HttpContext, done: Promise<unknown>): void {
  const note = notes.get(ctx) ?? {}
  note.after = done
  notes.set(ctx, note)
}

/**
 * Logs each request once it is answered, in pino-http's shape, so log
 * tooling built for pino-http reads it: `{ req: { id, method, url, remoteAddress },
 * res: { statusCode }, responseTime }` with the message `request completed`,
 * at `info`, `warn` for 4xx and `error` for 5xx (`debug` for a route marked
 * `.quiet()`, the health route's). pino-http itself wants Node's
 * `req`/`res`, which requests made with `app.request()` do not have.
 * `remoteAddress` is the client's (`request.ip()`: behind a trusted proxy,
 * the client it forwarded for). Headers and bodies are never logged, so no
 * cookie or token reaches the log.
 *
 * @example
 * ```ts
 * app.middleware.prependToGroup('global', requestLog)
 * // {"level":30,"req":{"id":1,"method":"GET","url":"/health","remoteAddress":"203.0.113.7"},"res":{"statusCode":200},"responseTime":0.4,"msg":"request completed"}
 * ```
 */
export const requestLog: Middleware = async (ctx, next) => {
  const started = performance.now()
  const id = ++nextId
  let status = 500
  try {
    const response = await next()
    status = response.status
    return response
  } catch (error) {
    status = describeError(error).status
    throw error
  } finally {
    const after = notes.get(ctx)?.after
    const log = () => write(ctx, id, started, status)
    if (after) void after.then(log, log)
    else log()
  }
}

/** The entry itself, with the worst status of the answer and its parts. */
function write(ctx: HttpContext, id: number, started: number, answered: number): void {
  const status = Math.max(answered, notes.get(ctx)?.status ?? 0)
  const responseTime = Math.round((performance.now() - started) * 10) / 10
  // A quiet route (a health probe, every few seconds) at debug, its 503 too: a check going down is logged once, by the checks.
  const quiet = ctx.route?.quietLog === true && (status < 500 || status === 503)
  const level = quiet ? 'debug' : status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info'
  const entry = { req: { id, method: ctx.request.method, url: ctx.request.path, remoteAddress: ctx.request.ip() }, res: { statusCode: status }, responseTime }
  if (ctx.app.hasService('logger')) ctx.app.service('logger')[level](entry, 'request completed')
  else console.log(JSON.stringify({ ...entry, msg: 'request completed' }))
}
