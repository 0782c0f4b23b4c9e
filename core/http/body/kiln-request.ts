import type { H3Event } from 'h3'
import type { z } from 'zod'
import { FORBIDDEN_KEYS, getPath } from '../../support/dot-path.ts'
import type { ParsedBody } from './body-parser.ts'
import { forwardedUrl, resolveForwarded, type ForwardedRequest } from '../proxy/resolve-forwarded.ts'
import { plainAddress, type TrustedProxies } from '../proxy/trusted-proxies.ts'

/**
 * Where the HTTP kernel puts `http.trusted_proxies` on a request's context,
 * only when some are configured: without it, no forwarding header is ever read. @internal
 */
export const TRUSTED_PROXIES = Symbol.for('kiln.trusted-proxies')

/**
 * The incoming request, with parsed input. Kiln parses the body before route
 * middleware run, so reading input is synchronous.
 *
 * @example
 * ```ts
 * Route.post('/posts', ({ request }) => {
 *   const title = request.input('title')
 *   const { tags } = request.only(['tags'])
 *   return { title, tags, user: request.user() }
 * })
 * ```
 */
export class KilnRequest {
  /** @internal set by the pipeline after parsing. */
  parsed: ParsedBody = { fields: {}, files: {} }
  private queryCache?: Record<string, string | string[]>
  private userValue: unknown = undefined
  private userResolver?: () => unknown
  private forwardedCache?: ForwardedRequest
  private forwardedUrl?: URL

  constructor(readonly event: H3Event) {}

  /** The web `Request`. @example `request.raw.headers.get('accept')` */
  get raw(): Request {
    return this.event.req as unknown as Request
  }

  /** `GET`, `POST`... @example `request.method` */
  get method(): string {
    return this.event.req.method
  }

  /**
   * The request URL as routed (without `APP_BASE_PATH`). Behind a trusted
   * proxy its scheme, host and port are the ones the client used
   * (`X-Forwarded-Proto`/`-Host`/`-Port` or `Forwarded`), so
   * `request.url.origin` is `https://app.example` behind a proxy that
   * terminates TLS.
   *
   * @example
   * ```ts
   * request.url.searchParams.get('page')
   * ```
   */
  get url(): URL {
    const forwarded = this.forwarded()
    if (forwarded === undefined || (forwarded.scheme === undefined && forwarded.host === undefined && forwarded.port === undefined)) return this.event.url
    return (this.forwardedUrl ??= forwardedUrl(this.event.url, forwarded))
  }

  /** The routed path, without the base path. @example `request.path // '/user'` */
  get path(): string {
    return this.event.url.pathname
  }

  /** The request headers. @example `request.headers.get('x-socket-id')` */
  get headers(): Headers {
    return this.event.req.headers
  }

  /** One header, or undefined. @example `request.header('Authorization')` */
  header(name: string): string | undefined {
    return this.event.req.headers.get(name) ?? undefined
  }

  /** The Bearer token of the Authorization header, if any. @example `request.bearerToken()` */
  bearerToken(): string | undefined {
    const header = this.header('authorization')
    if (!header) return undefined
    const match = /^Bearer\s+(.*)$/i.exec(header.trim())
    return match ? match[1]!.trim() : undefined
  }

  /** Query parameters; repeated keys become arrays. @example `request.query().page` */
  query(): Record<string, string | string[]> {
    if (this.queryCache) return this.queryCache
    const out: Record<string, string | string[]> = {}
    for (const [rawKey, value] of this.event.url.searchParams) {
      const key = rawKey.endsWith('[]') ? rawKey.slice(0, -2) : rawKey
      if (FORBIDDEN_KEYS.has(key)) continue
      const existing = out[key]
      out[key] = existing === undefined ? (rawKey.endsWith('[]') ? [value] : value) : [...(Array.isArray(existing) ? existing : [existing]), value]
    }
    return (this.queryCache = out)
  }

  /** The parsed body fields (JSON, urlencoded or multipart). @example `request.body().email` */
  body(): Record<string, unknown> {
    return this.parsed.fields
  }

  /** Query and body merged; body wins. @example `request.all()` */
  all(): Record<string, unknown> {
    const body = this.parsed.fields
    return Array.isArray(body) ? { ...this.query() } : { ...this.query(), ...body }
  }

  /**
   * One input value from the body or query, by dotted path.
   *
   * @example
   * ```ts
   * request.input('user.email')
   * request.input('page', '1')
   * ```
   */
  input<T = unknown>(key: string, fallback?: T): T {
    const fromBody = getPath(this.parsed.fields, key)
    if (fromBody !== undefined) return fromBody as T
    const fromQuery = getPath(this.query(), key)
    return (fromQuery === undefined ? fallback : fromQuery) as T
  }

  /**
   * Validates the input (query, body and uploaded files) with a zod schema and
   * returns the typed result. On failure it throws the `ZodError`, which
   * becomes 422 `{ message, errors: { field: [messages] } }` (a redirect back
   * is up to the handler). Async refinements (a unique email, say) run too.
   *
   * @example
   * ```ts
   * const { title, tags } = await request.validate(z.object({ title: z.string().min(3), tags: z.array(z.string()).default([]) }))
   * ```
   */
  validate<S extends z.ZodType>(schema: S): Promise<z.output<S>> {
    const files = this.parsed.files
    const input = Object.keys(files).length === 0 ? this.all() : { ...this.all(), ...files }
    return schema.parseAsync(input) as Promise<z.output<S>>
  }

  /** Only the named inputs. @example `request.only(['email', 'password'])` */
  only(keys: string[]): Record<string, unknown> {
    const out: Record<string, unknown> = {}
    for (const key of keys) {
      const value = this.input(key)
      if (value !== undefined) out[key] = value
    }
    return out
  }

  /** True when the input is present. @example `request.has('remember')` */
  has(key: string): boolean {
    return this.input(key) !== undefined
  }

  /** An uploaded file (multipart). @example `request.file('avatar')?.name` */
  file(name: string): File | undefined {
    const value = this.parsed.files[name]
    return Array.isArray(value) ? value[0] : value
  }

  /** All uploaded files under a name. @example `request.files('photos')` */
  files(name: string): File[] {
    const value = this.parsed.files[name]
    return value === undefined ? [] : Array.isArray(value) ? value : [value]
  }

  /** The raw text of a JSON or urlencoded body. @example `request.rawBody()` */
  rawBody(): string | undefined {
    return this.parsed.raw
  }

  /**
   * The authenticated user, filled in by the auth middleware (`undefined` when none).
   *
   * @example
   * ```ts
   * const user = request.user<User>()
   * ```
   */
  user<T = unknown>(): T | undefined {
    if (this.userValue === undefined && this.userResolver) this.userValue = this.userResolver()
    return this.userValue as T | undefined
  }

  /** Sets the authenticated user (used by guards). @example `request.setUser(user)` */
  setUser(user: unknown): void {
    this.userValue = user ?? undefined
  }

  /** Sets a lazy user resolver (used by guards). @example `request.setUserResolver(() => guard.user())` */
  setUserResolver(resolver: () => unknown): void {
    this.userResolver = resolver
  }

  /**
   * The client's address: the peer that connected, or, when that peer is a
   * trusted proxy (`http.trusted_proxies`), the client it forwarded for
   * (the right-most untrusted hop of `X-Forwarded-For` or `Forwarded`).
   * IPv4 on a dual-stack socket is plain IPv4. Undefined when there is no
   * peer (`app.request()`).
   *
   * @example
   * ```ts
   * Limit.perMinute(5).by(request.ip() ?? 'unknown')
   * ```
   */
  ip(): string | undefined {
    const forwarded = this.forwarded()
    if (forwarded) return forwarded.ip
    const peer = this.peer()
    return peer === undefined ? undefined : plainAddress(peer)
  }

  /**
   * The addresses from the client to this server: the client first, then
   * each trusted proxy it came through, the peer last. Only the part the
   * trusted proxies vouch for: entries a client wrote itself are left out.
   *
   * @example
   * ```ts
   * request.ips() // ['203.0.113.7', '10.0.0.2'] behind one trusted proxy
   * ```
   */
  ips(): string[] {
    const forwarded = this.forwarded()
    if (forwarded) return [...forwarded.ips]
    const ip = this.ip()
    return ip === undefined ? [] : [ip]
  }

  /** `http` or `https`, as the client asked (a trusted proxy's word for it). @example `request.scheme() // 'https'` */
  scheme(): 'http' | 'https' {
    return this.url.protocol === 'https:' ? 'https' : 'http'
  }

  /** True when the client used https (also behind a trusted proxy that terminates TLS). @example `if (!request.secure()) return redirect(...)` */
  secure(): boolean {
    return this.url.protocol === 'https:'
  }

  /** The host the client asked for, with its port when not the default one. @example `request.host() // 'app.example'` */
  host(): string {
    return this.url.host
  }

  /** The address that connected (a proxy's, behind one), as the server gives it. */
  private peer(): string | undefined {
    return (this.event.context.clientAddress as string | undefined) ?? (this.event.req as { ip?: string }).ip
  }

  /** The forwarding headers read once, only when trusted proxies are configured. */
  private forwarded(): ForwardedRequest | undefined {
    if (this.forwardedCache) return this.forwardedCache
    const proxies = (this.event.context as Record<symbol, TrustedProxies | undefined>)[TRUSTED_PROXIES]
    if (proxies === undefined) return undefined
    const headers = this.event.req.headers
    return (this.forwardedCache = resolveForwarded(this.peer(), (name) => headers.get(name), proxies))
  }

  /**
   * True when the client wants JSON: an `Accept` with json, an XHR/fetch
   * request (`X-Requested-With`), or a JSON body. Browser navigations get HTML.
   *
   * @example
   * ```ts
   * if (request.expectsJson()) return { ok: true }
   * ```
   */
  expectsJson(): boolean {
    const accept = this.header('accept') ?? ''
    if (accept.includes('json') || accept.includes('+json')) return true
    if (this.header('x-requested-with') === 'XMLHttpRequest') return true
    if (accept.includes('text/html')) return false
    const type = this.header('content-type') ?? ''
    return type.includes('json') || accept === '' || accept === '*/*'
  }

  /** True for a top-level browser navigation (wants HTML). @example `request.isNavigation()` */
  isNavigation(): boolean {
    return (this.header('accept') ?? '').includes('text/html') && !this.expectsJson()
  }
}
