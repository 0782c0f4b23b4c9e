import { KilnError } from '../support/errors.ts'
import { HttpException } from '../http/errors/http-exception.ts'
import type { HttpContext } from '../http/pipeline/http-context.ts'
import { middlewareNow, type Middleware } from '../http/pipeline/middleware.ts'
import type { Session } from './session.ts'
import { secureCookie } from './secure-cookie.ts'
import type { SessionConfig } from './session-config.ts'
import { maskCsrfToken } from './session-token.ts'

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * `verifyCsrfToken` (in the `web` group, after the session): unsafe requests
 * must carry the session's token in `_token`, `X-CSRF-TOKEN` or
 * `X-XSRF-TOKEN`, plain or masked as pages carry it (`csrfToken`), compared
 * in constant time, or get 419
 * `{"message":"CSRF token mismatch."}`. Responses carry the `XSRF-TOKEN`
 * cookie (which browser JavaScript echoes back in `X-XSRF-TOKEN`) whenever
 * the browser's copy is missing or stale, and whenever the session is saved;
 * the session middleware sets it once the session is saved, so a request
 * whose session was ended meanwhile never hands out its old token.
 *
 * @example
 * ```ts
 * // config/session.ts — paths that skip the check (routed, without the base path)
 * csrf_except: ['webhooks/*']
 * ```
 */
export const verifyCsrfToken: Middleware = middlewareNow((ctx, next) => {
  const session = ctx.session
  if (!session) throw new KilnError('verifyCsrfToken needs the session: put it after startSession.', { code: 'E_SESSION_MISSING' })
  // Also on a refusal, so a client that lost the cookie can retry. The session middleware, seeing the mark, creates
  // the token before it saves the session (if the handler has not) and sends the cookie: no promise of its own here.
  ;(ctx as Wanting)[XSRF_WANTED] = true
  if (!SAFE.has(ctx.request.method) && !isExcepted(ctx) && !tokensMatch(ctx, session)) {
    throw new HttpException(419, 'CSRF token mismatch.')
  }
  return next()
})

// A mark on the request's context, not a WeakSet entry per request, which costs the garbage collector (issue 25).
const XSRF_WANTED = Symbol('kiln.xsrfWanted')
type Wanting = HttpContext & { [XSRF_WANTED]?: true }

/**
 * True when `verifyCsrfToken` ran for this request, so the session
 * middleware sends the `XSRF-TOKEN` cookie after saving.
 *
 * @example
 * ```ts
 * if (wantsXsrfCookie(ctx)) addXsrfCookie(ctx, ctx.session!.token())
 * ```
 */
export function wantsXsrfCookie(ctx: HttpContext): boolean {
  return (ctx as Wanting)[XSRF_WANTED] === true
}

/**
 * Queues the `XSRF-TOKEN` cookie (readable by JavaScript) with the session's settings.
 *
 * @example
 * ```ts
 * addXsrfCookie(ctx, ctx.session!.token())
 * ```
 */
export function addXsrfCookie(ctx: HttpContext, token: string): void {
  const config = ctx.app.config.get<SessionConfig>('session')
  ctx.cookies.set('XSRF-TOKEN', token, {
    path: config.path,
    domain: config.domain,
    sameSite: config.same_site,
    secure: secureCookie(ctx, config.secure),
    maxAge: config.lifetime * 60,
    httpOnly: false,
    encrypt: false,
  })
}

function tokensMatch(ctx: HttpContext, session: Session): boolean {
  return session.matchesToken(ctx.request.body()?._token ?? ctx.request.header('x-csrf-token') ?? ctx.request.header('x-xsrf-token'))
}

function isExcepted(ctx: HttpContext): boolean {
  const patterns = ctx.app.config.get<string[]>('session.csrf_except', [])
  const path = ctx.request.path.replace(/^\/+/, '')
  return patterns.some((pattern) => globToRegExp(pattern.replace(/^\/+/, '')).test(path))
}

function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`)
}

/**
 * The session's CSRF token, for forms and meta tags: masked with a fresh
 * random pad on each call, so no two pages carry the same string and a
 * compressed page's size gives nothing away about it (BREACH).
 * `verifyCsrfToken` accepts it, as it accepts the plain token of the
 * `XSRF-TOKEN` cookie.
 *
 * @example
 * ```ts
 * `<input type="hidden" name="_token" value="${csrfToken(ctx)}">`
 * ```
 */
export function csrfToken(ctx: HttpContext): string {
  if (!ctx.session) throw new KilnError('csrfToken() needs a session: use it on a `web` route.', { code: 'E_SESSION_MISSING' })
  return maskCsrfToken(ctx.session.token())
}

/**
 * A hidden `_token` input for HTML forms.
 *
 * @example
 * ```ts
 * `<form method="post">${csrfField(ctx)}...</form>`
 * ```
 */
export function csrfField(ctx: HttpContext): string {
  return `<input type="hidden" name="_token" value="${csrfToken(ctx)}">`
}
