import {
  currentApp,
  encryptCookies,
  middlewareNow,
  startSession,
  verifyCsrfToken,
  type Application,
  type HttpContext,
  type Middleware,
  type Next,
} from '../../core/index.ts'
import { checkAbilities, checkForAnyAbility, requireAbilities } from './abilities-middleware.ts'
import type { TokConfig } from './tok-config.ts'

const CURRENT_REQUEST_HOST = '__kiln_current_request_host__'

/**
 * The host and port of `APP_URL`, for the stateful list.
 *
 * @example
 * ```ts
 * currentApplicationUrlWithPort() // 'shop.test:8080'
 * ```
 */
export function currentApplicationUrlWithPort(app: Application = currentApp()): string {
  const url = new URL(app.config.get<string>('app.url', 'http://localhost'))
  return url.port ? `${url.hostname}:${url.port}` : url.hostname
}

/**
 * A placeholder in the stateful list that matches the request's own host.
 *
 * @example
 * ```ts
 * stateful: ['localhost', currentRequestHost()]
 * ```
 */
export function currentRequestHost(): string {
  return CURRENT_REQUEST_HOST
}

/**
 * The default stateful domains: local development hosts and `APP_URL`'s host and port.
 *
 * @example
 * ```ts
 * defaultStatefulDomains(app) // ['localhost', 'localhost:3000', '127.0.0.1', '127.0.0.1:8000', '::1', 'shop.test']
 * ```
 */
export function defaultStatefulDomains(app: Application): string[] {
  return ['localhost', 'localhost:3000', '127.0.0.1', '127.0.0.1:8000', '::1', currentApplicationUrlWithPort(app)]
}

/**
 * True when the request comes from a first-party frontend: its `Referer`
 * (else `Origin`), without the scheme, matches a stateful domain — exact
 * host and port, `*` wildcards, and never a longer host (`test.com.x` is not
 * `test.com`).
 *
 * @example
 * ```ts
 * fromFrontend(ctx, ['spa.example.com', '*.example.com'])
 * ```
 */
export function fromFrontend(ctx: HttpContext, stateful: string[]): boolean {
  const source = ctx.request.header('referer') ?? ctx.request.header('origin')
  if (!source) return false
  let domain = source.replace(/^https?:\/\//i, '')
  if (!domain.endsWith('/')) domain += '/'
  // The host the browser asked for: behind a trusted proxy that rewrites Host (nginx's default), the one it forwarded.
  const host = ctx.request.host()
  return stateful.some((entry) => {
    const pattern = (entry.trim() === CURRENT_REQUEST_HOST ? host : entry.trim()) + '/*'
    return new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i').test(domain)
  })
}

/**
 * `ensureFrontendRequestsAreStateful`: API requests from a stateful domain
 * get encrypted cookies, the session and CSRF checks; all others stay
 * stateless.
 *
 * @example
 * ```ts
 * app.middleware.prependToGroup('api', ensureFrontendRequestsAreStateful)
 * ```
 */
export const ensureFrontendRequestsAreStateful: Middleware = middlewareNow((ctx, next) => {
  const stateful = ctx.app.config.get<TokConfig>('tok').stateful ?? []
  // Every API request passes here: a stateless one hands the answer on without a promise.
  if (!fromFrontend(ctx, stateful)) return next()
  const csrf: Next = () => Promise.resolve(verifyCsrfToken(ctx, next as Next, [])) as Promise<Response>
  const session: Next = () => Promise.resolve(startSession(ctx, csrf, [])) as Promise<Response>
  return encryptCookies(ctx, session, [])
})

/**
 * Kiln's `middleware` helpers for tokens.
 *
 * @example
 * ```ts
 * // routes/api.ts
 * export default defineRoutes((Route) => {
 *   middleware.statefulApi()
 *   Route.get('/user', ({ request }) => request.user()).middleware(['auth:tok'])
 * })
 * ```
 */
export const middleware = {
  /** Gives the `api` group session and CSRF for stateful domains, and registers `abilities` and `ability`. */
  statefulApi(app: Application = currentApp()): void {
    if (app.middleware.groupMembers('api').includes(ensureFrontendRequestsAreStateful)) return
    app.middleware.prependToGroup('api', ensureFrontendRequestsAreStateful)
    app.middleware.alias('abilities', checkAbilities, { validate: requireAbilities })
    app.middleware.alias('ability', checkForAnyAbility, { validate: requireAbilities })
  },
}
