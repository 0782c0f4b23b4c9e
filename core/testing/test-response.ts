import { containsSubset, fail, jsonAt } from './response-assertions.ts'

/** Reads the session the test client's cookies name, after a response (`assertSessionHas`). */
export type SessionReader = () => Promise<{ get(key: string): unknown; has(key: string): boolean } | undefined>

/**
 * A response with test conveniences and assertions, as Laravel's and
 * AdonisJS's test responses have. The body is read once and kept. Each
 * assertion resolves to the response (so they chain after `await`) or
 * throws an `AssertionError` that shows the status, content type, location
 * and body that came back.
 *
 * @example
 * ```ts
 * const res = await client.get('/user')
 * await res.assertOk()
 * await res.assertJson({ email: 'ada@example.com' })
 * await res.assertJsonPath('roles.0', 'admin')
 * ```
 */
export class TestResponse {
  private text_?: Promise<string>

  constructor(
    readonly raw: Response,
    private readonly readSession?: SessionReader,
  ) {}

  get status(): number {
    return this.raw.status
  }

  get headers(): Headers {
    return this.raw.headers
  }

  /** One header. @example `res.header('location')` */
  header(name: string): string | null {
    return this.raw.headers.get(name)
  }

  /** The body as text. @example `await res.text()` */
  text(): Promise<string> {
    return (this.text_ ??= this.raw.text())
  }

  /** The body parsed as JSON. @example `await res.json()` */
  async json<T = any>(): Promise<T> {
    return JSON.parse(await this.text()) as T
  }

  /** The cookies this response sets, by name (values as sent). @example `res.cookies.get('XSRF-TOKEN')` */
  get cookies(): Map<string, string> {
    const out = new Map<string, string>()
    for (const line of this.raw.headers.getSetCookie()) {
      const pair = line.split(';')[0]!
      const eq = pair.indexOf('=')
      out.set(pair.slice(0, eq), pair.slice(eq + 1))
    }
    return out
  }

  /** The status is `status`. @example `await res.assertStatus(201)` */
  async assertStatus(status: number): Promise<this> {
    if (this.status !== status) await fail(this, `Expected status ${status}, got ${this.status}.`, { actual: this.status, expected: status })
    return this
  }

  /** The status is 200. @example `await res.assertOk()` */
  assertOk(): Promise<this> {
    return this.assertStatus(200)
  }

  /** The status is 201. @example `await res.assertCreated()` */
  assertCreated(): Promise<this> {
    return this.assertStatus(201)
  }

  /** The status is 204. @example `await res.assertNoContent()` */
  assertNoContent(): Promise<this> {
    return this.assertStatus(204)
  }

  /** The status is 404. @example `await res.assertNotFound()` */
  assertNotFound(): Promise<this> {
    return this.assertStatus(404)
  }

  /** The status is 403. @example `await res.assertForbidden()` */
  assertForbidden(): Promise<this> {
    return this.assertStatus(403)
  }

  /** The status is 401. @example `await res.assertUnauthorized()` */
  assertUnauthorized(): Promise<this> {
    return this.assertStatus(401)
  }

  /** The status is 422 (and, given keys, the JSON `errors` has each). @example `await res.assertUnprocessable(['email'])` */
  async assertUnprocessable(keys: string[] = []): Promise<this> {
    await this.assertStatus(422)
    const errors = (await this.parsed()) as { errors?: Record<string, unknown> } | undefined
    const missing = keys.filter((key) => errors?.errors?.[key] === undefined)
    if (missing.length > 0) await fail(this, `Expected validation errors for ${missing.join(', ')}.`)
    return this
  }

  /**
   * The JSON body contains `subset`: every key given, with the same value
   * (deeply); other keys may be there too, as Laravel's `assertJson`.
   *
   * @example
   * ```ts
   * await res.assertJson({ user: { email: 'ada@example.com' } })
   * ```
   */
  async assertJson(subset: unknown): Promise<this> {
    const body = await this.parsed()
    if (!containsSubset(body, subset))
      await fail(this, `Expected the JSON body to contain ${JSON.stringify(subset)}.`, { actual: body, expected: subset, operator: 'containsSubset' })
    return this
  }

  /** The JSON value at a dotted path (`data.0.title`) equals `expected` (deeply). @example `await res.assertJsonPath('data.0.title', 'Hello')` */
  async assertJsonPath(path: string, expected: unknown): Promise<this> {
    const value = jsonAt(await this.parsed(), path)
    if (!containsSubset(value, expected) || (expected !== null && typeof expected === 'object' && !containsSubset(expected, value)))
      await fail(this, `Expected JSON at "${path}" to be ${JSON.stringify(expected)}, got ${JSON.stringify(value)}.`, {
        actual: value,
        expected,
        operator: 'deepStrictEqual',
      })
    return this
  }

  /**
   * The response redirects (3xx with a Location), to `to` when given: a
   * path matches the Location's path and query whatever its origin.
   *
   * @example
   * ```ts
   * await res.assertRedirect('/login')
   * ```
   */
  async assertRedirect(to?: string): Promise<this> {
    const location = this.header('location')
    if (this.status < 300 || this.status >= 400 || !location) await fail(this, `Expected a redirect${to ? ` to ${to}` : ''}, got status ${this.status}.`)
    if (to !== undefined && !sameTarget(location!, to))
      await fail(this, `Expected a redirect to ${to}, got one to ${location}.`, { actual: location, expected: to })
    return this
  }

  /** The body contains `text` (HTML-escaped, unless `escape` is false). @example `await res.assertSee('Welcome, Ada')` */
  async assertSee(text: string, escape = true): Promise<this> {
    const needle = escape ? escapeHtml(text) : text
    if (!(await this.text()).includes(needle)) await fail(this, `Expected to see "${text}" in the body.`)
    return this
  }

  /** The body does not contain `text`. @example `await res.assertDontSee('Admin')` */
  async assertDontSee(text: string, escape = true): Promise<this> {
    const needle = escape ? escapeHtml(text) : text
    if ((await this.text()).includes(needle)) await fail(this, `Did not expect to see "${text}" in the body.`)
    return this
  }

  /** A header is present, with `value` when given. @example `await res.assertHeader('content-type', 'application/json')` */
  async assertHeader(name: string, value?: string | RegExp): Promise<this> {
    const actual = this.header(name)
    if (actual === null) await fail(this, `Expected the header ${name}.`)
    const matches = value === undefined || (typeof value === 'string' ? actual === value || actual!.split(';')[0]!.trim() === value : value.test(actual!))
    if (!matches) await fail(this, `Expected the header ${name} to be ${String(value)}, got ${actual}.`, { actual, expected: value })
    return this
  }

  /** A header is absent. @example `await res.assertHeaderMissing('x-powered-by')` */
  async assertHeaderMissing(name: string): Promise<this> {
    if (this.header(name) !== null) await fail(this, `Did not expect the header ${name}.`)
    return this
  }

  /**
   * The response sets a cookie (not one that deletes it). Values of
   * encrypted cookies are sealed, so `value` is compared only when given.
   *
   * @example
   * ```ts
   * await res.assertCookie('XSRF-TOKEN')
   * ```
   */
  async assertCookie(name: string, value?: string): Promise<this> {
    const line = this.raw.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`))
    if (!line || /;\s*max-age=0\b/i.test(line)) await fail(this, `Expected the cookie ${name} to be set.`)
    const actual = this.cookies.get(name)!
    if (value !== undefined && actual !== value && safeDecode(actual) !== value)
      await fail(this, `Expected the cookie ${name} to be ${value}, got ${actual}.`, { actual, expected: value })
    return this
  }

  /** The response does not set the cookie. @example `await res.assertCookieMissing('remember_web')` */
  async assertCookieMissing(name: string): Promise<this> {
    if (this.cookies.has(name)) await fail(this, `Did not expect the cookie ${name} to be set.`)
    return this
  }

  /**
   * The session (as the test client's cookies name it after this response)
   * has `key`, equal to `value` when given: flashed messages and errors too.
   *
   * @example
   * ```ts
   * const res = await client.post('/todos', { title: '' })
   * await res.assertSessionHas('errors')
   * await res.assertSessionHas('status', 'Saved.')
   * ```
   */
  async assertSessionHas(key: string, value?: unknown): Promise<this> {
    if (!this.readSession) await fail(this, 'assertSessionHas needs a response of the test client.')
    const session = await this.readSession!()
    if (!session) await fail(this, `Expected the session to have "${key}", but the client has no session.`)
    if (!session!.has(key)) await fail(this, `Expected the session to have "${key}".`)
    const actual = session!.get(key)
    if (value !== undefined && !containsSubset(actual, value))
      await fail(this, `Expected the session's "${key}" to be ${JSON.stringify(value)}, got ${JSON.stringify(actual)}.`, { actual, expected: value })
    return this
  }

  /** The session does not have `key`. @example `await res.assertSessionMissing('errors')` */
  async assertSessionMissing(key: string): Promise<this> {
    const session = await this.readSession?.()
    if (session?.has(key)) await fail(this, `Did not expect the session to have "${key}".`)
    return this
  }

  private async parsed(): Promise<unknown> {
    try {
      return JSON.parse(await this.text())
    } catch {
      return fail(this, 'Expected a JSON body.')
    }
  }
}

function sameTarget(location: string, to: string): boolean {
  const a = new URL(location, 'http://localhost')
  const b = new URL(to, 'http://localhost')
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(to)
  return (absolute ? a.origin === b.origin : true) && a.pathname === b.pathname && (b.search === '' || a.search === b.search)
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;')
    .replace(/`/g, '&#x60;')
    .replace(/=/g, '&#x3D;')
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}
