import type { H3Event } from 'h3'
import type { Application } from '../../application/application.ts'
import { currentScope, enterScope } from '../../support/async-scope.ts'
import { CookieJar } from '../body/cookie-jar.ts'
import { KilnRequest } from '../body/kiln-request.ts'
import type { RouteDefinition } from '../routing/route-definition.ts'

/**
 * Extension point: subsystems add typed members to the context (the session
 * layer adds `session`, auth adds `auth`) with declaration merging:
 *
 * @example
 * ```ts
 * declare module 'kiln-framework' { interface HttpContextExtensions { tenant?: Tenant } }
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface HttpContextExtensions {}

/**
 * Everything one request's handlers and middleware share: the app, the
 * request, route parameters, cookies and response headers.
 *
 * @example
 * ```ts
 * Route.get('/posts/{id}', ({ params, request, response }) => {
 *   response.headers.set('Cache-Control', 'no-store')
 *   return { id: params.id, page: request.input('page', '1') }
 * })
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- its extension members come from HttpContextExtensions
export class HttpContext {
  readonly request: KilnRequest
  /** The matched route, when one matched. */
  route?: RouteDefinition
  // Built on first use: most API requests never touch cookies, locals or queued headers.
  private cookieJar?: CookieJar
  private localsMap?: Map<string | symbol, unknown>
  private responseState?: { headers: Headers; status: number | undefined }
  // Tasks waiting for the response; `null` once it was handed over (a later task starts at once).
  private deferredTasks?: Array<() => unknown> | null
  /**
   * Headers a middleware wants on every answer of this request (the `web`
   * group's security headers). The kernel writes them into the response it
   * builds from a handler's value (`toResponseNow`), so the usual answer
   * never builds a `Headers` object for them; `hasBaseHeaders(response)`
   * tells the middleware which answers still need them. @internal
   */
  baseHeaders?: Readonly<Record<string, string>>

  constructor(
    readonly app: Application,
    readonly event: H3Event,
  ) {
    this.request = new KilnRequest(event)
  }

  /** The request's cookies and the cookies the response will set. @example `ctx.cookies.get('theme')` */
  get cookies(): CookieJar {
    return (this.cookieJar ??= new CookieJar(this.event.req.headers.get('cookie')))
  }

  /** Per-request scratch space for middleware. @example `ctx.locals.set('tenant', t)` */
  get locals(): Map<string | symbol, unknown> {
    return (this.localsMap ??= new Map())
  }

  /** Headers and status merged into whatever the handler returns. @example `ctx.response.headers.set('x', '1')` */
  get response(): { headers: Headers; status: number | undefined } {
    return (this.responseState ??= { headers: new Headers(), status: undefined })
  }

  /** True when headers, a status or cookies wait to be merged into the response. @internal */
  hasQueuedResponseState(): boolean {
    if (this.cookieJar?.hasQueued()) return true
    const state = this.responseState
    if (!state) return false
    if (state.status !== undefined) return true
    return !state.headers.keys().next().done
  }

  /** Forgets queued response state once merged. @internal */
  resetResponseState(): void {
    this.responseState = undefined
    this.cookieJar?.clearQueued()
  }

  /**
   * Runs `task` after this request's response has been handed to the
   * server, so the client does not wait for it (mail, webhooks). Tasks run
   * in the order deferred, whatever the response's status, inside this
   * request's context; a failure is logged once and never reaches the
   * client; `app.close()` waits for them. See also `defer()`.
   *
   * @example
   * ```ts
   * Route.post('/invite', async (ctx) => {
   *   ctx.defer(() => Mail.to(ctx.request.input('email')).send(new Invitation()))
   *   return { message: 'Invitation on its way.' }
   * })
   * ```
   */
  defer(task: () => unknown): void {
    if (this.deferredTasks === null) void this.app.service('http').deferred.run([task], this)
    else (this.deferredTasks ??= []).push(task)
  }

  /** The kernel has the response: deferred tasks may start. @internal */
  responded(): void {
    const tasks = this.deferredTasks
    this.deferredTasks = null
    if (tasks) void this.app.service('http').deferred.run(tasks, this)
  }

  /** Route parameters (`{id}` segments), URL-decoded. @example `ctx.params.id` */
  get params(): Record<string, string> {
    return (this.event.context.params as Record<string, string> | undefined) ?? {}
  }
}

// Subsystems merge their members into HttpContext through HttpContextExtensions.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- merged into the class
export interface HttpContext extends HttpContextExtensions {}

const CONTEXT = Symbol.for('kiln.http-context')

/**
 * The Kiln context of an h3 event, created on first use.
 *
 * @example
 * ```ts
 * const ctx = contextOf(app, event)
 * ```
 */
export function contextOf(app: Application, event: H3Event): HttpContext {
  const holder = event.context as Record<symbol, HttpContext | undefined>
  return (holder[CONTEXT] ??= new HttpContext(app, event))
}

/**
 * Runs `fn` with `ctx` as the request in scope, and its app as the current
 * application. The HTTP kernel does this for every request.
 *
 * @example
 * ```ts
 * await runWithContext(ctx, () => handler(ctx))
 * ```
 */
export function runWithContext<T>(ctx: HttpContext, fn: () => T): T {
  return enterScope({ app: ctx.app, request: ctx }, fn)
}

/**
 * The request being served, if any (undefined in jobs and commands).
 *
 * @example
 * ```ts
 * const socketId = currentHttpContext()?.request.header('x-socket-id')
 * ```
 */
export function currentHttpContext(): HttpContext | undefined {
  return currentScope()?.request as HttpContext | undefined
}
