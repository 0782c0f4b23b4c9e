import type { H3Event } from 'h3'
import type { z } from 'zod'
import { FORBIDDEN_KEYS, getPath } from '../../support/dot-path.ts'
import type { ParsedBody } from './body-parser.ts'

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

  constructor(readonly event: H3Event) {}

  /** The web `Request`. @example `request.raw.headers.get('accept')` */
  get raw(): Request {
    return this.event.req as unknown as Request
  }

  /** `GET`, `POST`... @example `request.method` */
  get method(): string {
    return this.event.req.method
  }

  /** The request URL as routed (without `APP_BASE_PATH`). @example `request.url.searchParams` */
  get url(): URL {
    return this.event.url
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

  /** The client IP as the server saw it. @example `request.ip()` */
  ip(): string | undefined {
    return (this.event.context.clientAddress as string | undefined) ?? (this.event.req as { ip?: string }).ip
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
