import type { Storage } from 'unstorage'
import { FORBIDDEN_KEYS } from '../support/dot-path.ts'
import { randomId } from './random-id.ts'
import { SessionRecords } from './session-records.ts'

export { randomId } from './random-id.ts'

const ID_PATTERN = /^[A-Za-z0-9]{40}$/

/** What {@link Session.save} did: wrote the record, had nothing to write, or found the id ended by another request. */
export type SaveResult = 'written' | 'unchanged' | 'ended'

/** Old input over this size (serialised) is not flashed: a form post must not grow the session. */
const MAX_FLASHED_INPUT = 4096
/** Inputs never flashed back to a form. */
const NEVER_FLASHED = new Set(['password', 'password_confirmation', 'current_password', '_token'])
/** A session untouched by a request is rewritten (to extend its expiry) at most this often. */
const TOUCH_INTERVAL_MS = 60_000

/**
 * One visitor's session: key/value data that lives across requests, flash
 * data that lives for the next request only, and the CSRF token.
 *
 * Saving writes only what this request changed, merged into the record as
 * it is stored at that moment, so parallel requests on one session (a page
 * of components, an SPA) keep each other's keys.
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
  /** Each key's value as loaded, serialised: what a save compares against. */
  private loaded = new Map<string, string>()
  private loadedExpiresAt = 0
  /** Ids this request ended (regenerated or logged out); their records become tombstones. */
  private readonly ended: string[] = []
  /** True when the stored data must be replaced rather than merged (flush, a new id). */
  private replace = false

  private constructor(
    private sessionId: string,
    private readonly records: SessionRecords,
    readonly isNew: boolean,
  ) {}

  /**
   * Loads a session by id, or starts a new one when the id is missing,
   * malformed, unknown, expired or ended (a client can never choose its own id).
   *
   * @example
   * ```ts
   * const session = await Session.load(store, cookieValue, 120 * 60)
   * ```
   */
  static async load(store: Storage, id: string | undefined, lifetimeSeconds: number): Promise<Session> {
    const records = new SessionRecords(store, lifetimeSeconds)
    if (id && ID_PATTERN.test(id)) {
      const stored = await records.read(id)
      if (stored) {
        const session = new Session(id, records, false)
        session.data = stored.data
        for (const [key, value] of Object.entries(stored.data)) session.loaded.set(key, JSON.stringify(value))
        session.loadedExpiresAt = stored.expires_at
        session.ageFlashOnLoad()
        return session
      }
    }
    const session = new Session(randomId(), records, true)
    session.replace = true
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
  }

  /** True when the key is set. @example `session.has('cart')` */
  has(key: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.data, key) && this.data[key] !== undefined
  }

  /** Removes a key. @example `session.forget('cart')` */
  forget(key: string): void {
    if (Object.prototype.hasOwnProperty.call(this.data, key)) delete this.data[key]
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
    this.replace = true
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

  /**
   * Flashes a form's input for the next request (to refill the form after a
   * failed post), leaving out passwords and any value over 4 KB serialised.
   *
   * @example
   * ```ts
   * session.flashInput(request.all())
   * // next request: session.old('email')
   * ```
   */
  flashInput(input: Record<string, unknown>): void {
    const kept: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(input)) {
      if (NEVER_FLASHED.has(key) || FORBIDDEN_KEYS.has(key) || value === undefined) continue
      if (Buffer.byteLength(JSON.stringify(value) ?? '') > MAX_FLASHED_INPUT) continue
      kept[key] = value
    }
    this.flash('_old_input', kept)
  }

  /**
   * Input flashed by the previous request, or `fallback`.
   *
   * @example
   * ```ts
   * session.old('email', '')
   * ```
   */
  old<T = unknown>(key?: string, fallback?: T): T {
    const input = this.get<Record<string, unknown>>('_old_input', {})
    if (key === undefined) return input as T
    return (Object.prototype.hasOwnProperty.call(input, key) ? input[key] : fallback) as T
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
   * A new id for the same data; the old id is ended for good (login calls
   * this, so a planted or copied id is worthless).
   *
   * @example
   * ```ts
   * await session.regenerate()
   * ```
   */
  async regenerate(): Promise<void> {
    // Only the id this request loaded can exist in the store; ids made since were never written.
    if (!this.isNew && this.ended.length === 0) this.ended.push(this.sessionId)
    this.sessionId = randomId()
    this.replace = true
  }

  /** A new id, no data and a new CSRF token; the old id is ended everywhere (logout). @example `await session.invalidate()` */
  async invalidate(): Promise<void> {
    this.flush()
    await this.regenerate()
    this.regenerateToken()
  }

  /**
   * Persists the session (called by the session middleware after the
   * response): ages flash data, ends ids this request replaced, and writes
   * this request's changes merged into the stored record. A session that was
   * ended by another request meanwhile (a logout, or a login, in another
   * tab) is not written back.
   *
   * Resolves to `'written'` (the record was written: the cookie should be
   * sent, to carry a new id or extend its life), `'unchanged'` (nothing to
   * write: the browser's cookie is still right) or `'ended'` (another
   * request ended this id: send no cookie, the browser already holds the
   * one that replaced it).
   *
   * @example
   * ```ts
   * if ((await session.save()) === 'written') ctx.cookies.set('kiln_session', session.id)
   * ```
   */
  async save(): Promise<SaveResult> {
    this.ageFlashOnSave()
    for (const id of this.ended.splice(0)) await this.records.destroy(id)
    const expiresAt = Date.now() + this.records.lifetimeSeconds * 1000
    if (this.replace) {
      const data = this.data
      const written = await this.records.update(this.sessionId, () => ({ data, expires_at: expiresAt }))
      this.replace = false
      this.markLoaded(expiresAt)
      return written ? 'written' : 'ended'
    }
    const changed = this.changedKeys()
    if (changed.length === 0 && expiresAt - this.loadedExpiresAt < TOUCH_INTERVAL_MS) return 'unchanged'
    const written = await this.records.update(this.sessionId, (current) => {
      // Gone without a tombstone (cleared by hand): what this request holds is all there is.
      if (!current) return { data: this.data, expires_at: expiresAt }
      const data = { ...current.data }
      for (const key of changed) {
        if (Object.prototype.hasOwnProperty.call(this.data, key)) data[key] = this.data[key]
        else delete data[key]
      }
      return { data, expires_at: expiresAt }
    })
    this.markLoaded(expiresAt)
    return written ? 'written' : 'ended'
  }

  /** True when something changed since load. @example `session.isDirty()` */
  isDirty(): boolean {
    return this.replace || this.changedKeys().length > 0
  }

  private changedKeys(): string[] {
    const keys = new Set([...this.loaded.keys(), ...Object.keys(this.data)])
    return [...keys].filter((key) => {
      const now = Object.prototype.hasOwnProperty.call(this.data, key) ? JSON.stringify(this.data[key]) : undefined
      return now !== this.loaded.get(key)
    })
  }

  private markLoaded(expiresAt: number): void {
    this.loaded = new Map(Object.entries(this.data).map(([key, value]) => [key, JSON.stringify(value)]))
    this.loadedExpiresAt = expiresAt
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
  }

  private ageFlashOnSave(): void {
    const flash = this.data._flash as { old: string[]; new: string[] } | undefined
    if (!flash) return
    for (const key of flash.old) if (!flash.new.includes(key)) delete this.data[key]
    this.data._flash = { old: [], new: flash.new }
    if (flash.new.length === 0 && flash.old.length === 0) delete this.data._flash
  }
}
