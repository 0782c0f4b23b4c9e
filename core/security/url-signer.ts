import { createSecretKey, type KeyObject } from 'node:crypto'
import type { Application } from '../application/application.ts'
import { currentApp } from '../application/current-app.ts'
import type { HttpContext } from '../http/pipeline/http-context.ts'
import { HttpException } from '../http/errors/http-exception.ts'
import type { Middleware } from '../http/pipeline/middleware.ts'
import { parseAppKey } from './app-key.ts'
import { hmacHex, safeEqual } from './safe-compare.ts'

/** Options for signing. */
export interface SignOptions {
  /** Lifetime; omit for a URL that never expires. */
  ttlMinutes?: number
  /** Sign the full URL (scheme, host, base path) instead of the routed path. */
  absolute?: boolean
  /** Extra query parameters, covered by the signature. */
  params?: Record<string, string | number | boolean>
}

/**
 * Signs and verifies URLs: HMAC-SHA256 (keyed by `APP_KEY`) over the routed
 * path and the sorted query (without `signature`), plus an `expires` unix time.
 *
 * Relative signatures cover the path *without* `APP_BASE_PATH`, and the
 * browser gets the prefixed URL: the kernel strips the prefix before
 * routing, so a signature made for `/comp/update` verifies when the browser
 * calls `/sub/comp/update`.
 *
 * @example
 * ```ts
 * const signer = app.service('signer')
 * signer.sign('/comp/update', { ttlMinutes: 720 }) // '/sub/comp/update?expires=...&signature=...'
 * ```
 */
export class UrlSigner {
  private readonly key: KeyObject

  constructor(private readonly app: Application) {
    // A derived key, so URL signatures never share material with cookie encryption.
    // A KeyObject, made once: every update address is signed and checked with it.
    this.key = createSecretKey(Buffer.from(hmacHex(parseAppKey(app.config.get<string>('app.key')), 'kiln:url-signing'), 'hex'))
  }

  /** A signed browser-facing URL for a routed path. @example `signer.sign('/unsubscribe', { params: { user: 1 } })` */
  sign(path: string, options: SignOptions = {}): string {
    // A plain routed path (the usual case) needs no URL parser to normalise it.
    const url = SIMPLE_PATH.test(path) ? { pathname: path, searchParams: new URLSearchParams() } : new URL(path, 'http://placeholder')
    for (const [k, v] of Object.entries(options.params ?? {})) url.searchParams.set(k, String(v))
    url.searchParams.delete('signature')
    if (options.ttlMinutes !== undefined) url.searchParams.set('expires', String(Math.floor(Date.now() / 1000 + options.ttlMinutes * 60)))
    const browserPath = this.app.urls.to(url.pathname)
    const origin = options.absolute ? new URL(this.app.config.get<string>('app.url', 'http://localhost')).origin : ''
    const subject = options.absolute ? `${origin}${browserPath}${canonicalQuery(url.searchParams)}` : `${url.pathname}${canonicalQuery(url.searchParams)}`
    url.searchParams.set('signature', hmacHex(this.key, subject))
    const relative = `${browserPath}?${url.searchParams.toString()}`
    return options.absolute ? `${origin}${relative}` : relative
  }

  /** A signed URL for a named route. @example `signer.signRoute('unsubscribe', { user: 1 }, { ttlMinutes: 60 })` */
  signRoute(name: string, params: Record<string, string | number | boolean> = {}, options: Omit<SignOptions, 'params'> = {}): string {
    return this.sign(this.app.router.path(name, params), options)
  }

  /**
   * True when the request carries a valid, unexpired signature.
   *
   * @example
   * ```ts
   * if (!signer.hasValidSignature(ctx, { relative: true })) abort(403)
   * ```
   */
  hasValidSignature(ctx: HttpContext, options: { relative?: boolean } = {}): boolean {
    // One pass over the query: the signature (exactly one), the first `expires`, and the rest to canonicalise.
    let signature: string | undefined
    let signatures = 0
    let expires: string | undefined
    const rest: Array<[string, string]> = []
    for (const pair of new URLSearchParams(ctx.request.url.search)) {
      if (pair[0] === 'signature') {
        signature ??= pair[1]
        signatures++
        continue
      }
      if (pair[0] === 'expires') expires ??= pair[1]
      rest.push(pair)
    }
    if (!signature || !/^[a-f0-9]{64}$/.test(signature) || signatures !== 1) return false
    if (expires !== undefined && (!/^\d{1,12}$/.test(expires) || Number(expires) < Date.now() / 1000)) return false
    const path = ctx.request.path
    const subject = options.relative ? `${path}${canonicalQuery(rest)}` : `${ctx.request.url.origin}${this.app.urls.to(path)}${canonicalQuery(rest)}`
    return safeEqual(hmacHex(this.key, subject), signature)
  }
}

/** Paths `new URL` would leave as they are: no query, dot segments, escapes or unusual characters. */
const SIMPLE_PATH = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*\/?$/

/** Names and values that form encoding leaves as they are: such a pair is written without a URLSearchParams. */
const FORM_SAFE = /^[A-Za-z0-9*._-]*$/

/** The query sorted by name (stably), form-encoded as URLSearchParams writes it, with its `?`; empty for none. */
function canonicalQuery(params: Iterable<[string, string]>): string {
  const sorted = [...params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  let text = ''
  for (const [name, value] of sorted) {
    text += text ? '&' : '?'
    text += FORM_SAFE.test(name) && FORM_SAFE.test(value) ? `${name}=${value}` : new URLSearchParams([[name, value]]).toString()
  }
  return text
}

/**
 * `signed` / `signed:relative`: a bad, missing or expired signature gets 403
 * `{"message":"Invalid signature."}`.
 *
 * @example
 * ```ts
 * Route.post('/comp/update', handler).middleware(['web', 'signed:relative'])
 * ```
 */
export const validateSignature: Middleware = (ctx, next, params) => {
  const signer = ctx.app.service('signer')
  if (!signer.hasValidSignature(ctx, { relative: params.includes('relative') })) throw new HttpException(403, 'Invalid signature.')
  return next()
}

/**
 * A signed URL for a named route, from the app in scope.
 *
 * @example
 * ```ts
 * signedRoute('unsubscribe', { user: 1 }, { ttlMinutes: 60 * 24 })
 * ```
 */
export function signedRoute(name: string, params: Record<string, string | number | boolean> = {}, options: Omit<SignOptions, 'params'> = {}): string {
  return currentApp().service('signer').signRoute(name, params, options)
}

/**
 * A signed URL for a routed path, from the app in scope.
 *
 * @example
 * ```ts
 * signUrl('/comp/update', { ttlMinutes: 720 })
 * ```
 */
export function signUrl(path: string, options: SignOptions = {}): string {
  return currentApp().service('signer').sign(path, options)
}
