/**
 * A response with test conveniences; the body is read once and kept.
 *
 * @example
 * ```ts
 * const res = await client.get('/user')
 * res.status          // 200
 * await res.json()    // { id: 1, ... }
 * res.header('content-type')
 * ```
 */
export class TestResponse {
  private text_?: Promise<string>

  constructor(readonly raw: Response) {}

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
}
