import { randomBytes } from 'node:crypto'
import type { Storage } from 'unstorage'
import { FORBIDDEN_KEYS } from '../support/dot-path.ts'

const ID_PATTERN = /^[A-Za-z0-9]{40}$/
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/**
 * A new random id: 40 characters from a CSPRNG.
 *
 * @example
 * ```ts
 * randomId() // 'q3Zk...'
 * ```
 */
export function randomId(length = 40): string {
  const bytes = randomBytes(length * 2)
  let out = ''
  // 248 is the largest multiple of 62 under 256: rejecting above it keeps the choice unbiased.
  for (let i = 0; i < bytes.length && out.length < length; i++) if (bytes[i]! < 248) out += ALPHABET[bytes[i]! % 62]
  return out.length === length ? out : randomId(length)
}

interface StoredSession {
  data: Record<string, unknown>
  expires_at: number
}

/**
 * One visitor's session: key/value data that lives across requests, flash
 * data that lives for the next request only, and the CSRF token.
 *
 * @example
 * ```ts
 * Route.post('/cart', ({ session, request }) => {
 *   session!.put('cart', [...session!.get<string[]>('cart', []), request.input('sku')])
 *   session!.flash('status', 'Added to cart.')
 * })
 * ```
 */
export class Session {
  private data: Record<string, unknown> = {}
  private dirty = false
  private previousId?: string

  private constructor(
    private sessionId: string,
    private readonly store: Storage,
    private readonly lifetimeSeconds: number,
    readonly isNew: boolean,
  ) {}

  /**
   * Loads a session by id, or starts a new one when the id is missing,
   * malformed, unknown or expired (a client can never choose its own id).
   *
   * @example
   * ```ts
   * const session = await Session.load(store, cookieValue, 120 * 60)
   * ```
   */
  static async load(store: Storage, id: string | undefined, lifetimeSeconds: number): Promise<Session> {
    if (id && ID_PATTERN.test(id)) {
      const stored = (await store.getItem<StoredSession>(id)) as StoredSession | null
      if (stored && typeof stored === 'object' && stored.expires_at > Date.now() && stored.data && typeof stored.data === 'object') {
        const session = new Session(id, store, lifetimeSeconds, false)
        session.data = stored.data
        session.ageFlashOnLoad()
        return session
      }
    }
    const session = new Session(randomId(), store, lifetimeSeconds, true)
    session.dirty = true
    return session
  }

  /** The session id (never shown to the client unencrypted). @example `session.id` */
  get id(): string {
    return this.sessionId
  }

  /** A value, or `fallback`. @example `session.get('cart', [])` */
  get<T = unknown>(key: string, fallback?: T): T {
    return (Object.prototype.hasOwnProperty.call(this.data, key) ? this.data[key] : fallback) as T
  }

  /** Stores a value. @example `session.put('locale', 'fr')` */
  put(key: string, value: unknown): void {
    if (FORBIDDEN_KEYS.has(key)) throw new TypeError(`"${key}" cannot be a session key.`)
    this.data[key] = value
    this.dirty = true
  }

  /** True when the key is set. @example `session.has('cart')` */
  has(key: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.data, key) && this.data[key] !== undefined
  }

  /** Removes a key. @example `session.forget('cart')` */
  forget(key: string): void {
    if (Object.prototype.hasOwnProperty.call(this.data, key)) {
      delete this.data[key]
      this.dirty = true
    }
  }

  /** Reads and removes a key. @example `session.pull('intended', '/')` */
  pull<T = unknown>(key: string, fallback?: T): T {
    const value = this.get(key, fallback)
    this.forget(key)
    return value
  }

  /** Every value except internal keys. @example `session.all()` */
  all(): Record<string, unknown> {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(this.data)) if (!k.startsWith('_')) out[k] = v
    return out
  }

  /** Removes everything. @example `session.flush()` */
  flush(): void {
    this.data = {}
    this.dirty = true
  }

  /**
   * Stores a value for the next request only.
   *
   * @example
   * ```ts
   * session.flash('status', 'Saved.')
   * ```
   */
  flash(key: string, value: unknown): void {
    this.put(key, value)
    const flash = this.flashState()
    flash.new = [...flash.new.filter((k) => k !== key), key]
    flash.old = flash.old.filter((k) => k !== key)
  }

  /** The CSRF token of this session, created on first use. @example `session.token()` */
  token(): string {
    let token = this.data._token
    if (typeof token !== 'string' || token.length !== 40) {
      token = randomId()
      this.put('_token', token)
    }
    return token as string
  }

  /** A fresh CSRF token. @example `session.regenerateToken()` */
  regenerateToken(): string {
    const token = randomId()
    this.put('_token', token)
    return token
  }

  /**
   * A new id for the same data (login calls this, so a planted id is worthless).
   *
   * @example
   * ```ts
   * await session.regenerate()
   * ```
   */
  async regenerate(): Promise<void> {
    this.previousId ??= this.sessionId
    this.sessionId = randomId()
    this.dirty = true
  }

  /** A new id, no data and a new CSRF token (logout). @example `await session.invalidate()` */
  async invalidate(): Promise<void> {
    this.flush()
    await this.regenerate()
    this.regenerateToken()
  }

  /**
   * Persists the session (called by the session middleware after the
   * response): ages flash data, drops a regenerated session's old record.
   *
   * @example
   * ```ts
   * await session.save()
   * ```
   */
  async save(): Promise<void> {
    this.ageFlashOnSave()
    if (this.previousId) {
      await this.store.removeItem(this.previousId)
      this.previousId = undefined
    }
    const record: StoredSession = { data: this.data, expires_at: Date.now() + this.lifetimeSeconds * 1000 }
    await this.store.setItem(this.sessionId, record, { ttl: this.lifetimeSeconds })
    this.dirty = false
  }

  /** True when something changed since load. @example `session.isDirty()` */
  isDirty(): boolean {
    return this.dirty
  }

  private flashState(): { old: string[]; new: string[] } {
    let flash = this.data._flash as { old: string[]; new: string[] } | undefined
    if (!flash || !Array.isArray(flash.old) || !Array.isArray(flash.new)) {
      flash = { old: [], new: [] }
      this.data._flash = flash
    }
    return flash
  }

  private ageFlashOnLoad(): void {
    const flash = this.data._flash as { old?: string[]; new?: string[] } | undefined
    if (!flash) return
    this.data._flash = { old: [...(flash.old ?? []), ...(flash.new ?? [])], new: [] }
    if ((flash.new ?? []).length > 0) this.dirty = true
  }

  private ageFlashOnSave(): void {
    const flash = this.data._flash as { old: string[]; new: string[] } | undefined
    if (!flash) return
    for (const key of flash.old) if (!flash.new.includes(key)) delete this.data[key]
    if (flash.old.length > 0) this.dirty = true
    this.data._flash = { old: [], new: flash.new }
    if (flash.new.length === 0 && flash.old.length === 0) delete this.data._flash
  }
}
