import { FastResponse } from 'srvx'
import { bodyOf, knownBody } from '../http/compression/known-body.ts'
import type { HttpContext } from '../http/pipeline/http-context.ts'
import { middlewareNow, type Middleware } from '../http/pipeline/middleware.ts'
import { hasBaseHeaders } from '../http/responses/to-response.ts'
import type { HttpConfig } from '../http/http-config.ts'

/** What each `http.frame_options` sends: the old header and the CSP directive that replaces it in current browsers. */
const FRAMING = {
  sameorigin: { header: 'SAMEORIGIN', ancestors: "frame-ancestors 'self'" },
  deny: { header: 'DENY', ancestors: "frame-ancestors 'none'" },
} as const

// A policy (or one of several, comma-separated) that already says who may frame the page is left as it is.
const HAS_FRAME_ANCESTORS = /(?:^|[;,])\s*frame-ancestors(?:[\s;,]|$)/i

/**
 * `webHeaders` (first in the `web` group, so it sees every answer of the
 * group, errors included): the headers a browser page should carry, as
 * helmet and AdonisJS's shield send them.
 *
 * - `X-Content-Type-Options: nosniff` on every response.
 * - A framing policy (`http.frame_options`, default `'sameorigin'`):
 *   `X-Frame-Options: SAMEORIGIN` and `frame-ancestors 'self'` in the
 *   Content-Security-Policy. A response that already has a policy (one with
 *   a nonce, say) gets the directive added to it, never a second header;
 *   one that names its own `frame-ancestors` keeps it. `'deny'` sends
 *   `DENY` and `frame-ancestors 'none'`; `false` sends neither.
 * - `Cache-Control: private, no-store` on the answers to a logged-in user
 *   (`request.user()` set, or a user in the session), so that a shared
 *   cache or the browser's back button never shows one user's page to the
 *   next person at that computer. Guests' pages are left to cache as before.
 *
 * A header the handler (or a middleware further in) set itself is never
 * replaced. Files from `public/` do not go through the `web` group.
 *
 * @example
 * ```ts
 * // config/http.ts: pages that another site of yours frames
 * export default defineHttpConfig({ frame_options: false })
 * ```
 */
export const webHeaders: Middleware = middlewareNow((ctx, next) => {
  ctx.baseHeaders = BASE_HEADERS[String(ctx.app.config.get<HttpConfig['frame_options']>('http.frame_options', 'sameorigin'))] ?? NOSNIFF
  const answer = next()
  return answer instanceof Response ? withWebHeaders(ctx, answer) : answer.then((response) => withWebHeaders(ctx, response))
})

// What the kernel writes into the answers it builds from a handler's value (ctx.baseHeaders): one literal per setting.
const NOSNIFF = Object.freeze({ 'x-content-type-options': 'nosniff' })
const BASE_HEADERS: Record<string, Readonly<Record<string, string>>> = Object.fromEntries(
  Object.entries(FRAMING).map(([option, framing]) => [
    option,
    Object.freeze({ ...NOSNIFF, 'x-frame-options': framing.header, 'content-security-policy': framing.ancestors }),
  ]),
)

function withWebHeaders(ctx: HttpContext, response: Response): Response {
  // Built by the kernel with the base headers in (nothing was queued, the handler set none): only a logged-in user's
  // Cache-Control is left, without touching the headers of every other answer.
  if (hasBaseHeaders(response)) return loggedIn(ctx) ? withHeaders(response, [['cache-control', 'private, no-store']]) : response
  const headers = response.headers
  const wanted: Array<[string, string]> = []
  if (!headers.has('x-content-type-options')) wanted.push(['x-content-type-options', 'nosniff'])
  const option = ctx.app.config.get<HttpConfig['frame_options']>('http.frame_options', 'sameorigin')
  if (option) {
    const framing = FRAMING[option]
    if (!headers.has('x-frame-options')) wanted.push(['x-frame-options', framing.header])
    const policy = headers.get('content-security-policy')
    if (policy === null || policy.trim() === '') wanted.push(['content-security-policy', framing.ancestors])
    else if (!HAS_FRAME_ANCESTORS.test(policy)) wanted.push(['content-security-policy', `${policy.replace(/[\s;]+$/, '')}; ${framing.ancestors}`])
  }
  if (!headers.has('cache-control') && loggedIn(ctx)) wanted.push(['cache-control', 'private, no-store'])
  return withHeaders(response, wanted)
}

/** The session keys the app's session guards keep a user under (`login_<guard>`), per `auth.guards` object. */
const LOGIN_KEYS = new WeakMap<object, string[]>()

function loginKeys(ctx: HttpContext): string[] {
  const guards = ctx.app.config.get<Record<string, { driver?: unknown } | undefined> | undefined>('auth.guards')
  if (!guards) return []
  let keys = LOGIN_KEYS.get(guards)
  if (!keys) {
    keys = Object.entries(guards)
      .filter(([, guard]) => guard?.driver === 'session')
      .map(([name]) => `login_${name}`)
    LOGIN_KEYS.set(guards, keys)
  }
  return keys
}

/**
 * A user on this request, or one in its session (a guard other than the
 * default, a login just made). Asks the session for the guards' few keys
 * rather than listing it: this runs on every `web` answer.
 */
function loggedIn(ctx: HttpContext): boolean {
  if (ctx.request.user() !== undefined) return true
  const session = ctx.session
  if (session === undefined) return false
  for (const key of loginKeys(ctx)) if (session.has(key)) return true
  return false
}

/** Sets the headers, on a copy when the response's own are immutable (one from `fetch` or `Response.redirect`). */
function withHeaders(response: Response, wanted: Array<[string, string]>): Response {
  if (wanted.length === 0) return response
  let out = response
  try {
    for (const [name, value] of wanted) out.headers.set(name, value)
  } catch {
    const known = bodyOf(response)
    const init = { status: response.status, statusText: response.statusText, headers: new Headers(response.headers) }
    out = known === undefined ? new FastResponse(response.body, init) : knownBody(new FastResponse(known, init), known)
    for (const [name, value] of wanted) out.headers.set(name, value)
  }
  return out
}
