import { parse as parseCookies } from 'cookie-es'

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
 * Serialises one `Set-Cookie` value, as cookie-es's `serialize` does (the
 * same text, the same checks, the same `TypeError`s), in a fraction of its
 * time: a new visitor's answer carries two cookies. `Path` defaults to `/`;
 * `SameSite=None` always comes with `Secure`, since browsers drop it otherwise.
 *
 * @example
 * ```ts
 * serializeCookie('a', '1', { path: '/', httpOnly: true, sameSite: 'lax' })
 * // 'a=1; Path=/; HttpOnly; SameSite=Lax'
 * ```
 */
export function serializeCookie(name: string, value: string, options: CookieOptions = {}): string {
  if (!COOKIE_NAME.test(name)) throw new TypeError(`argument name is invalid: ${name}`)
  const encoded = value ? encodeURIComponent(value) : ''
  if (!COOKIE_VALUE.test(encoded)) throw new TypeError(`argument val is invalid: ${value}`)
  const sameSite = typeof options.sameSite === 'string' ? (options.sameSite.toLowerCase() as string) : (options.sameSite as unknown)
  const secure = options.secure || options.sameSite === 'none'
  if (!secure) {
    if (sameSite === 'none') throw new TypeError('SameSite=None cookies must have the Secure attribute')
    if (name.length > 9 && name.charCodeAt(0) === 95 && name.charCodeAt(1) === 95) {
      const lower = name.toLowerCase()
      if (lower.startsWith('__secure-') || lower.startsWith('__host-')) throw new TypeError(`${name} cookies must have the Secure attribute`)
    }
  }
  if (name.length > 7 && name.charCodeAt(0) === 95 && name.charCodeAt(1) === 95 && name.toLowerCase().startsWith('__host-')) {
    if ((options.path ?? '/') !== '/') throw new TypeError('__Host- cookies must have Path=/')
    if (options.domain) throw new TypeError('__Host- cookies must not have a Domain attribute')
  }
  let out = `${name}=${encoded}`
  if (options.maxAge !== undefined) {
    const maxAge = Math.floor(options.maxAge)
    if (!Number.isInteger(maxAge)) throw new TypeError(`option maxAge is invalid: ${maxAge}`)
    out += `; Max-Age=${Math.max(0, Math.min(maxAge, MAX_AGE_LIMIT))}`
  }
  if (options.domain) {
    if (!DOMAIN_VALUE.test(options.domain)) throw new TypeError(`option domain is invalid: ${options.domain}`)
    out += `; Domain=${options.domain}`
  }
  const path = options.path ?? '/'
  if (path) {
    if (!PATH_VALUE.test(path)) throw new TypeError(`option path is invalid: ${path}`)
    out += `; Path=${path}`
  }
  if (options.expires) {
    if (!(options.expires instanceof Date) || !Number.isFinite(options.expires.valueOf()))
      throw new TypeError(`option expires is invalid: ${String(options.expires)}`)
    out += `; Expires=${options.expires.toUTCString()}`
  }
  if (options.httpOnly) out += '; HttpOnly'
  if (secure) out += '; Secure'
  if (sameSite)
    out +=
      sameSite === 'lax'
        ? '; SameSite=Lax'
        : sameSite === 'strict' || sameSite === true
          ? '; SameSite=Strict'
          : sameSite === 'none'
            ? '; SameSite=None'
            : invalidSameSite(sameSite)
  return out
}

// cookie-es's rules (RFC 6265 token and cookie-octets, as percent-encoding leaves them), and its 400-day Max-Age cap.
const COOKIE_NAME = /^[\u0021-\u003A\u003C\u003E-\u007E]+$/
const COOKIE_VALUE = /^[\u0021-\u003A\u003C-\u007E]*$/
const DOMAIN_VALUE = /^([.]?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)([.][a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i
const PATH_VALUE = /^[\u0020-\u003A\u003C-\u007E]*$/
const MAX_AGE_LIMIT = 34_560_000

function invalidSameSite(value: unknown): never {
  throw new TypeError(`option sameSite is invalid: ${String(value)}`)
}
