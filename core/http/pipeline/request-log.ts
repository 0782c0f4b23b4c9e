import { describeError } from '../errors/error-renderer.ts'
import type { Middleware } from './middleware.ts'

let nextId = 0

/**
 * Logs each request once it is answered, in pino-http's shape, so log
 * tooling built for pino-http reads it: `{ req: { id, method, url, remoteAddress },
 * res: { statusCode }, responseTime }` with the message `request completed`,
 * at `info`, `warn` for 4xx and `error` for 5xx. pino-http itself wants Node's
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
    const responseTime = Math.round((performance.now() - started) * 10) / 10
    const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info'
    const entry = { req: { id, method: ctx.request.method, url: ctx.request.path, remoteAddress: ctx.request.ip() }, res: { statusCode: status }, responseTime }
    if (ctx.app.hasService('logger')) ctx.app.service('logger')[level](entry, 'request completed')
    else console.log(JSON.stringify({ ...entry, msg: 'request completed' }))
  }
}
