import { HttpException } from '../http/http-exception.ts'
import type { HttpContext } from '../http/http-context.ts'
import type { Middleware } from '../http/middleware.ts'
import { safeEqual } from '../security/safe-compare.ts'
import type { SessionConfig } from './session-config.ts'

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * `verifyCsrfToken` (in the `web` group, after the session): unsafe requests
 * must carry the session's token in `_token`, `X-CSRF-TOKEN` or
 * `X-XSRF-TOKEN` (compared in constant time), or get 419
 * `{"message":"CSRF token mismatch."}`. Every response refreshes the
 * `XSRF-TOKEN` cookie, which browser JavaScript echoes back in
 * `X-XSRF-TOKEN`.
 *
 * @example
 * ```ts
 * // config/session.ts — paths that skip the check (routed, without the base path)
 * csrf_except: ['webhooks/*']
 * ```
 */
export const verifyCsrfToken: Middleware = async (ctx, next) => {
  const session = ctx.session
  if (!session) throw new Error('verifyCsrfToken needs the session: put it after startSession.')
  if (!SAFE.has(ctx.request.method) && !isExcepted(ctx) && !tokensMatch(ctx, session.token())) {
    // The refusal still carries the cookie, so a client that lost it can retry.
    addXsrfCookie(ctx, session.token())
    throw new HttpException(419, 'CSRF token mismatch.')
  }
  const response = await next()
  addXsrfCookie(ctx, session.token())
  return response
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
    secure: config.secure ?? ctx.app.config.get<string>('app.url', '').startsWith('https:'),
    maxAge: config.lifetime * 60,
    httpOnly: false,
    encrypt: false,
  })
}

function tokensMatch(ctx: HttpContext, expected: string): boolean {
  const given = ctx.request.body()?._token ?? ctx.request.header('x-csrf-token') ?? ctx.request.header('x-xsrf-token')
  return typeof given === 'string' && given.length > 0 && safeEqual(given, expected)
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
 * The session's CSRF token, for forms and meta tags.
 *
 * @example
 * ```ts
 * `<input type="hidden" name="_token" value="${csrfToken(ctx)}">`
 * ```
 */
export function csrfToken(ctx: HttpContext): string {
  if (!ctx.session) throw new Error('csrfToken() needs a session: use it on a `web` route.')
  return ctx.session.token()
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
