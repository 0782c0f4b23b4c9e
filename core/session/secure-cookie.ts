import type { HttpContext } from '../http/pipeline/http-context.ts'

/**
 * Whether the session's cookies (the session, `XSRF-TOKEN`, remember-me)
 * are sent with `Secure`: as `session.secure` says, else when `APP_URL` is
 * https or this request came over https (also through a trusted proxy that
 * terminates TLS: `http.trusted_proxies`).
 *
 * @example
 * ```ts
 * ctx.cookies.set('kiln_session', value, { secure: secureCookie(ctx, config.secure) })
 * ```
 */
export function secureCookie(ctx: HttpContext, configured: boolean | undefined): boolean {
  return configured ?? (ctx.app.config.get<string>('app.url', '').startsWith('https:') || ctx.request.secure())
}
