import type { Application } from '../application/application.ts'
import type { AuthUser } from '../auth/contracts.ts'
import { sessionStore } from '../session/session-stores.ts'
import { Session } from '../session/session.ts'
import { TestResponse } from './test-response.ts'

/** Changes a request before it is sent: `actingAs`, `withToken` and friends. */
export type RequestDecorator = (request: { path: string; init: RequestInit & { headers: Headers } }) => void | Promise<void>

interface StoredCookie {
  value: string
  path: string
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * A test client over `app.request()` that behaves like a browser running an
 * SPA: it keeps cookies (honouring `Max-Age=0` and `Path`), sends them back,
 * and on unsafe methods copies the `XSRF-TOKEN` cookie into `X-XSRF-TOKEN`,
 * as axios does. Each request resolves once the tasks it deferred
 * (`ctx.defer`, `defer()`: a mail sent after the response) have run, so a
 * test sees their effects at once; `app.request()` does not wait for them.
 *
 * Later features add to it through `use(decorator)`: the tok plugin's
 * `withToken` and `actingAs`, for example.
 *
 * @example
 * ```ts
 * const client = new TestClient(app)
 * await client.get('/tok/csrf-cookie')
 * const res = await client.json('POST', '/login', { email, password })
 * const me = await client.get('/user')
 * ```
 */
export class TestClient {
  readonly cookies = new Map<string, StoredCookie>()
  private readonly headers = new Headers()
  private readonly decorators: RequestDecorator[] = []
  private csrf = true
  private waitForDeferred = true

  constructor(readonly app: Application) {}

  /** Headers sent with every following request. @example `client.withHeaders({ referer: 'http://localhost:3000' })` */
  withHeaders(headers: Record<string, string>): this {
    for (const [k, v] of Object.entries(headers)) this.headers.set(k, v)
    return this
  }

  /**
   * Resolves each following request as soon as the app answers, while the
   * tasks it deferred may still run: to test that an answer does not wait
   * for them. `await app.service('http').deferred.settled()` waits later.
   *
   * @example
   * ```ts
   * const client = new TestClient(app).withoutWaitingForDeferred()
   * ```
   */
  withoutWaitingForDeferred(): this {
    this.waitForDeferred = false
    return this
  }

  /** Stops echoing the XSRF cookie (to test CSRF refusals). @example `client.withoutCsrf()` */
  withoutCsrf(): this {
    this.csrf = false
    return this
  }

  /**
   * Authenticates following requests as `user` on a guard. Applies to the
   * whole test app, like Laravel's actingAs. With `abilities`, the user gets a
   * token granting exactly those (`tokenCan`), and the guard defaults to
   * `tok` when the app has one; otherwise to the default guard.
   *
   * @example
   * ```ts
   * await client.actingAs(user).get('/dashboard')
   * await client.actingAs(user, ['orders:read']).get('/user')
   * ```
   */
  actingAs(user: AuthUser, abilitiesOrGuard?: string[] | string, guard?: string): this {
    const auth = this.app.service('auth')
    const abilities = Array.isArray(abilitiesOrGuard) ? abilitiesOrGuard : undefined
    const name =
      typeof abilitiesOrGuard === 'string' ? abilitiesOrGuard : (guard ?? (abilities && auth.guards.connectionNames().includes('tok') ? 'tok' : undefined))
    if (abilities) {
      const grants = (ability: string) => abilities.includes('*') || abilities.includes(ability)
      ;(user as { withAccessToken?(t: unknown): unknown }).withAccessToken?.({ can: grants, cant: (a: string) => !grants(a), delete: async () => false })
    }
    auth.actingAs(user, name)
    return this
  }

  /**
   * Sends `Authorization: Bearer <token>` with following requests: a real issued token.
   *
   * @example
   * ```ts
   * const { plainTextToken } = await user.createToken('test')
   * await client.withToken(plainTextToken).get('/user')
   * ```
   */
  withToken(token: string): this {
    return this.withHeaders({ authorization: `Bearer ${token}` })
  }

  /** Adds a request decorator. @example `client.use(({ init }) => init.headers.set('x-tenant', 'a'))` */
  use(decorator: RequestDecorator): this {
    this.decorators.push(decorator)
    return this
  }

  /** @example `await client.get('/')` */
  get(path: string, headers: Record<string, string> = {}): Promise<TestResponse> {
    return this.send('GET', path, undefined, headers)
  }
  /** A form or raw body POST (objects are sent as JSON). @example `await client.post('/login', { email })` */
  post(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<TestResponse> {
    return this.send('POST', path, body, headers)
  }
  /** @example `await client.put('/posts/1', { title })` */
  put(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<TestResponse> {
    return this.send('PUT', path, body, headers)
  }
  /** @example `await client.patch('/posts/1', { title })` */
  patch(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<TestResponse> {
    return this.send('PATCH', path, body, headers)
  }
  /** @example `await client.delete('/posts/1')` */
  delete(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<TestResponse> {
    return this.send('DELETE', path, body, headers)
  }

  /** A JSON request that also asks for JSON. @example `await client.json('POST', '/tok/token', { email, password, device_name })` */
  json(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<TestResponse> {
    return this.send(method.toUpperCase(), path, body === undefined ? undefined : JSON.stringify(body), {
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    })
  }

  /** The current value of a cookie, URL-decoded. @example `client.cookie('XSRF-TOKEN')` */
  cookie(name: string): string | undefined {
    const stored = this.cookies.get(name)
    return stored === undefined ? undefined : safeDecode(stored.value)
  }

  /**
   * The session the client's cookie names now, loaded from the app's store
   * (undefined before the app has started one).
   *
   * @example
   * ```ts
   * const session = await client.session()
   * session?.get('cart')
   * ```
   */
  async session(): Promise<Session | undefined> {
    const name = this.app.config.get<string | undefined>('session.cookie')
    const sealed = name === undefined ? undefined : this.cookies.get(name)?.value
    if (!name || sealed === undefined) return undefined
    const value = this.app.service('encrypter').decrypt(safeDecode(sealed), `cookie:${name}`)
    if (typeof value !== 'string') return undefined
    return Session.load(sessionStore(this.app), value, this.app.config.get<number>('session.lifetime', 120) * 60)
  }

  private async send(method: string, path: string, body: unknown, extra: Record<string, string>): Promise<TestResponse> {
    const headers = new Headers(this.headers)
    for (const [k, v] of Object.entries(extra)) headers.set(k, v)
    let payload: BodyInit | undefined
    if (body === undefined || body === null) payload = undefined
    else if (typeof body === 'string' || body instanceof FormData || body instanceof URLSearchParams || body instanceof Blob) payload = body
    else {
      payload = JSON.stringify(body)
      if (!headers.has('content-type')) headers.set('content-type', 'application/json')
      if (!headers.has('accept')) headers.set('accept', 'application/json')
    }
    const routed = new URL(path, 'http://localhost').pathname
    const cookie = [...this.cookies]
      .filter(([, c]) => routed.startsWith(c.path))
      .map(([k, c]) => `${k}=${c.value}`)
      .join('; ')
    if (cookie) headers.set('cookie', cookie)
    const xsrf = this.cookie('XSRF-TOKEN')
    if (this.csrf && UNSAFE.has(method) && xsrf && !headers.has('x-xsrf-token')) headers.set('x-xsrf-token', xsrf)
    const request = { path, init: { method, headers, body: payload } as RequestInit & { headers: Headers } }
    for (const decorate of this.decorators) await decorate(request)
    const sent = request.path.startsWith('/') ? new Request(`http://localhost${request.path}`, request.init) : new Request(request.path, request.init)
    const answer = await this.app.request(sent)
    // As a browser's next step comes after the server finished: what the request deferred (its mail) has run.
    if (this.waitForDeferred) await this.app.service('http').deferred.settled(sent)
    const response = new TestResponse(answer, () => this.session())
    this.store(response.raw.headers.getSetCookie())
    return response
  }

  private store(lines: string[]): void {
    for (const line of lines) {
      const [pair, ...attributes] = line.split(';').map((p) => p.trim())
      const eq = pair!.indexOf('=')
      const name = pair!.slice(0, eq)
      const value = pair!.slice(eq + 1)
      const attrs = new Map(attributes.map((a) => [a.split('=')[0]!.toLowerCase(), a.split('=').slice(1).join('=')]))
      const expired = attrs.get('max-age') === '0' || (attrs.has('expires') && new Date(attrs.get('expires')!).getTime() < Date.now())
      if (expired) this.cookies.delete(name)
      else this.cookies.set(name, { value, path: attrs.get('path') || '/' })
    }
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}
