import { HTTPError } from 'h3'
import { FastResponse } from 'srvx'
import { ZodError } from 'zod'
import { KilnError } from '../../support/errors.ts'
import { ServiceUnavailableError } from '../../support/redis-health.ts'
import { debugErrorPage } from './debug-error-page.ts'
import { errorPage } from './error-page.ts'
import { appErrorResponse, appErrorView } from './app-error-view.ts'
import { defaultMessage, HttpException } from './http-exception.ts'
import type { HttpContext } from '../pipeline/http-context.ts'
import { json } from '../responses/to-response.ts'
import { knownBody } from '../compression/known-body.ts'

export { errorPage } from './error-page.ts'
export { escapeHtml } from '../../support/escape-html.ts'

/** What an error becomes on the wire. */
export interface ErrorDescription {
  status: number
  message: string
  headers: Record<string, string>
  body: Record<string, unknown>
}

/**
 * Maps any thrown value to a status, message and extra body fields. Errors
 * that carry a 4xx `status` (HttpException, h3's HTTPError, ModelNotFound...)
 * keep it; zod failures become 422; everything else is a 500 whose message
 * never leaks. A `KilnError` adds its `code` to the body, a 500's too: the
 * code is the documented name of the fault, never a secret, and lets a
 * client (or a test) tell `E_COMP_REACTIVE_MUTATED` from any other crash.
 *
 * @example
 * ```ts
 * describeError(new HttpException(403, 'No.')).status // 403
 * describeError(new KilnError('Bad.', { code: 'E_THING' })).body // { code: 'E_THING' }
 * ```
 */
export function describeError(error: unknown): ErrorDescription {
  const description = describeStatus(error)
  if (error instanceof KilnError && description.body.code === undefined) description.body = { ...description.body, code: error.code }
  return description
}

function describeStatus(error: unknown): ErrorDescription {
  if (error instanceof HttpException) {
    return { status: error.status, message: error.message, headers: error.options.headers ?? {}, body: error.body ?? {} }
  }
  if (error instanceof ZodError) {
    const errors: Record<string, string[]> = {}
    for (const issue of error.issues) (errors[issue.path.join('.') || '_'] ??= []).push(issue.message)
    return { status: 422, message: Object.values(errors)[0]?.[0] ?? defaultMessage(422), headers: {}, body: { errors } }
  }
  if (HTTPError.isError(error)) {
    const status = error.status
    const headers: Record<string, string> = {}
    error.headers?.forEach((v, k) => (headers[k] = v))
    return { status, message: status >= 500 ? defaultMessage(status) : error.message || defaultMessage(status), headers, body: {} }
  }
  const status = (error as { status?: unknown } | null)?.status
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, message: (error as Error).message || defaultMessage(status), headers: {}, body: {} }
  }
  return { status: 500, message: defaultMessage(500), headers: {}, body: {} }
}

/**
 * The stable code an error answers with (`describeError`'s `code`): a
 * `KilnError`'s, or the one an `HttpException` puts in its body. For answers
 * built by hand, as a component's bundled or streamed update builds them.
 *
 * @example
 * ```ts
 * errorCode(new KilnError('No.', { code: 'E_COMP_WITH' })) // 'E_COMP_WITH'
 * ```
 */
export function errorCode(error: unknown): string | undefined {
  const code = describeError(error).body.code
  return typeof code === 'string' ? code : undefined
}

/** How `renderError` answers. */
export interface RenderErrorOptions {
  /** In debug mode, a 500 renders the debug page (HTML) even for a JSON client; 4xx errors stay JSON for them. */
  debugPage?: boolean
}

/**
 * Renders an error for this request: JSON `{ message, ... }` for API routes and
 * JSON clients, a small HTML page for browser navigations (the app's own
 * view `errors/<status>` or `errors/4xx`/`errors/5xx` when it has one). A
 * 500 is logged.
 * In debug mode (`APP_DEBUG=true`) a 500 shows its cause: JSON gets the
 * error's own message, `exception` and `stack`; browsers get the debug page
 * (stack with source lines, the request with secrets redacted). Without
 * debug, a 500 says only "Server error.". With `{ debugPage: true }` a 500
 * in debug mode gets the debug page even when the client asked for JSON: a
 * component's update does, and its browser shows the page in a dialog.
 *
 * @example
 * ```ts
 * return renderError(error, ctx)
 * ```
 */
export function renderError(error: unknown, ctx: HttpContext, options: RenderErrorOptions = {}): Response {
  const description = describeError(error)
  const { status, message, headers, body } = description
  // A service outage (ServiceUnavailableError) is logged once by whatever watches that service, not once per request.
  if (status >= 500 && !(error instanceof ServiceUnavailableError)) {
    const logger = ctx.app.hasService('logger') ? ctx.app.service('logger') : undefined
    const summary = { err: error, method: ctx.request.method, path: ctx.request.path }
    if (logger) logger.error(summary, 'Unhandled error while serving a request')
    else console.error('Unhandled error while serving', ctx.request.method, ctx.request.path, error)
  }
  if (status >= 500 && ctx.app.debug && error instanceof Error) {
    if (options.debugPage || !wantsJson(ctx)) return debugErrorPage(error, ctx, status, headers)
    return json({ message: error.message, ...body, exception: error.name, stack: error.stack?.split('\n').map((l) => l.trim()) ?? [] }, status, headers)
  }
  if (wantsJson(ctx)) return json({ message, ...body }, status, headers)
  // The app's own page (resources/views/errors/404.hbs, 5xx.hbs...), in its layout, when it has one.
  const view = appErrorView(ctx, status)
  if (view) return appErrorResponse(ctx, view, status, message, headers)
  const page = errorPage(status, message)
  return knownBody(new FastResponse(page, { status, headers: { ...headers, 'content-type': 'text/html; charset=utf-8' } }), page)
}

function wantsJson(ctx: HttpContext): boolean {
  const route = ctx.route
  if (route && route.allMiddleware().includes('api')) return !ctx.request.isNavigation()
  return ctx.request.expectsJson()
}
