import type { HttpContext } from './http-context.ts'

/** Calls the rest of the pipeline; resolves to the response it produced. */
export type Next = () => Promise<Response>

/**
 * A middleware: runs before (and, after `await next()`, after) the handler.
 * `params` are the alias parameters: `throttle:60,1` gives `['60', '1']`.
 * Returning a value short-circuits with that response.
 *
 * @example
 * ```ts
 * const timing: Middleware = async (ctx, next) => {
 *   const started = performance.now()
 *   const response = await next()
 *   response.headers.set('Server-Timing', `app;dur=${performance.now() - started}`)
 *   return response
 * }
 * ```
 */
export type Middleware = (ctx: HttpContext, next: Next, params: string[]) => unknown | Promise<unknown>

/** A middleware, or the name of an alias or group: `'web'`, `'auth:tok'`, `'throttle:60,1'`. */
export type MiddlewareRef = string | Middleware

/**
 * Declares a middleware with types.
 *
 * @example
 * ```ts
 * export const admin = defineMiddleware(async ({ request }, next) => {
 *   if (!request.user<User>()?.isAdmin) abort(403)
 *   return next()
 * })
 * ```
 */
export function defineMiddleware(fn: Middleware): Middleware {
  return fn
}
