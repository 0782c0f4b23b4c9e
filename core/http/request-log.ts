import type { Middleware } from './middleware.ts'

/**
 * Logs each request's method, path, status and duration (development default).
 * Never logs headers or bodies, so no secret reaches the log.
 *
 * @example
 * ```ts
 * app.middleware.prependToGroup('global', requestLog)
 * ```
 */
export const requestLog: Middleware = async (ctx, next) => {
  const started = performance.now()
  const response = await next()
  const ms = Math.round((performance.now() - started) * 10) / 10
  const line = `${ctx.request.method} ${ctx.request.path} ${response.status} ${ms}ms`
  if (ctx.app.hasService('logger')) ctx.app.service<{ info(msg: string): void }>('logger').info(line)
  else console.log(line)
  return response
}
