import { parse as parseCookies, serialize } from 'cookie-es'

/** Options for a cookie the response sets. */
export interface CookieOptions {
  path?: string
  domain?: string
  maxAge?: number
  expires?: Date
  httpOnly?: boolean
  secure?: boolean
  sameSite?: 'lax' | 'strict' | 'none'
  /** Set false for cookies JavaScript must read as written (`XSRF-TOKEN` is encrypted-exempt through config instead). */
  encrypt?: boolean
}

/**
 * A codec the cookie jar uses to seal and open cookie values. The session
 * layer installs AES-256-GCM encryption keyed by `APP_KEY`; without it cookies
 * are plain.
 */
export interface CookieCodec {
  encode(name: string, value: string): string
  /** Returns undefined for a value that does not open (tampered, other key). */
  decode(name: string, value: string): string | undefined
  /** Cookies that are never sealed (read by browser JavaScript). */
  isExempt(name: string): boolean
}

/**
 * The request's cookies and the cookies the response will set. Values are
 * opened with the jar's codec when read and sealed when queued.
 *
 * @example
 * ```ts
 * const theme = ctx.cookies.get('theme')
 * ctx.cookies.set('theme', 'dark', { maxAge: 60 * 60 * 24 * 365 })
 * ctx.cookies.delete('old')
 * ```
 */
export class CookieJar {
  private incoming?: Map<string, string>
  private readonly decoded = new Map<string, string | undefined>()
  private readonly queued = new Map<string, string>()
  codec?: CookieCodec

  constructor(
    private readonly header: string | null,
    private readonly defaults: CookieOptions = {},
  ) {}

  /** A cookie's value as the client sent it, opened by the codec. @example `jar.get('session')` */
  get(name: string): string | undefined {
    if (this.decoded.has(name)) return this.decoded.get(name)
    const raw = this.raw(name)
    const value = raw === undefined || !this.codec || this.codec.isExempt(name) ? raw : this.codec.decode(name, raw)
    this.decoded.set(name, value)
    return value
  }

  /** A cookie's value exactly as sent, never decoded. @example `jar.raw('XSRF-TOKEN')` */
  raw(name: string): string | undefined {
    this.incoming ??= parseCookieHeader(this.header)
    return this.incoming.get(name)
  }

  /** Queues a `Set-Cookie` for the response. @example `jar.set('a', '1', { httpOnly: true })` */
  set(name: string, value: string, options: CookieOptions = {}): void {
    const merged = { ...this.defaults, ...options }
    const sealed = merged.encrypt === false || !this.codec || this.codec.isExempt(name) ? value : this.codec.encode(name, value)
    this.queued.set(name, serializeCookie(name, sealed, merged))
  }

  /** Queues an expired cookie so the browser forgets it. @example `jar.delete('remember')` */
  delete(name: string, options: CookieOptions = {}): void {
    this.queued.set(name, serializeCookie(name, '', { ...this.defaults, ...options, maxAge: 0, expires: new Date(0) }))
  }

  /** True when cookies wait to be written. @example `jar.hasQueued()` */
  hasQueued(): boolean {
    return this.queued.size > 0
  }

  /** Forgets queued cookies once they were written to a response. @example `jar.clearQueued()` */
  clearQueued(): void {
    this.queued.clear()
  }

  /** The `Set-Cookie` header values queued so far. @example `jar.setCookieHeaders()` */
  setCookieHeaders(): string[] {
    return [...this.queued.values()]
  }
}

/**
 * Parses a `Cookie` header (cookie-es, as h3 does). Malformed pairs are
 * skipped; the first value of a name wins; values are percent-decoded when
 * they decode, and a value in double quotes loses them.
 *
 * @example
 * ```ts
 * parseCookieHeader('a=1; b=2').get('b') // '2'
 * ```
 */
export function parseCookieHeader(header: string | null): Map<string, string> {
  const out = new Map<string, string>()
  if (!header) return out
  const parsed = parseCookies(header)
  for (const name in parsed) {
    const value = parsed[name]!
    // RFC 6265 allows a DQUOTE-wrapped cookie-value; cookie-es keeps the quotes.
    out.set(name, value.length > 1 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value)
  }
  return out
}

/**
 * Serialises one `Set-Cookie` value (cookie-es). `Path` defaults to `/`;
 * `SameSite=None` always comes with `Secure`, since browsers drop it otherwise.
 *
 * @example
 * ```ts
 * serializeCookie('a', '1', { path: '/', httpOnly: true, sameSite: 'lax' })
 * // 'a=1; Path=/; HttpOnly; SameSite=Lax'
 * ```
 */
export function serializeCookie(name: string, value: string, options: CookieOptions = {}): string {
  return serialize(name, value, {
    path: options.path ?? '/',
    ...(options.maxAge !== undefined ? { maxAge: Math.floor(options.maxAge) } : {}),
    ...(options.expires ? { expires: options.expires } : {}),
    ...(options.domain ? { domain: options.domain } : {}),
    httpOnly: options.httpOnly,
    secure: options.secure || options.sameSite === 'none',
    sameSite: options.sameSite,
  })
}
