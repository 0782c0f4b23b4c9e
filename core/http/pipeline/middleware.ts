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

/** {@link Next} for a middleware made with {@link middlewareNow}: an answer known at once comes back as a `Response`, not a promise. */
export type NextNow = () => Response | Promise<Response>

const NEXT_NOW = Symbol.for('kiln.middleware.nextNow')

/**
 * Declares a middleware whose `next()` gives the `Response` itself when the
 * answer was known at once, and a promise otherwise ({@link NextNow}): it
 * returns that as it is, or waits on it when it is a promise. For
 * middleware on every request: each promise of a request costs an
 * AsyncLocalStorage hook on Node 20, and Kiln's own `global`, `web` and
 * `api` middleware are made this way, so a request through them makes
 * none. {@link defineMiddleware}'s `next()` always returns a promise.
 *
 * @example
 * ```ts
 * export const poweredBy = middlewareNow((ctx, next) => {
 *   ctx.response.headers.set('x-powered-by', 'kiln')
 *   return next()
 * })
 * ```
 */
export function middlewareNow(fn: (ctx: HttpContext, next: NextNow, params: string[]) => unknown): Middleware {
  Object.defineProperty(fn, NEXT_NOW, { value: true })
  return fn as Middleware
}

/**
 * True for a middleware made by {@link middlewareNow}. @internal
 *
 * @example
 * ```ts
 * const next = takesNextNow(layer.fn) ? nextNow : nextPromise
 * ```
 */
export function takesNextNow(fn: Middleware): boolean {
  return (fn as Middleware & { [NEXT_NOW]?: true })[NEXT_NOW] === true
}
