import type { KeyObject } from 'node:crypto'
import type { Storage } from 'unstorage'
import { FORBIDDEN_KEYS } from '../support/dot-path.ts'
import { randomId } from './random-id.ts'
import { ageFlashOnLoad, ageFlashOnSave, flashableInput, markFlashed } from './session-flash.ts'
import { LoadedValues } from './session-changes.ts'
import { parseSessionCookie, sessionCookieValue } from './session-cookie.ts'
import { SessionRecords, type StoredSession } from './session-records.ts'
import { derivedCsrfToken, tokenMatches } from './session-token.ts'

export { randomId } from './random-id.ts'

/** What {@link Session.save} did: saved it (the cookie must be sent), had nothing to save, or found the id ended by another request. */
export type SaveResult = 'written' | 'unchanged' | 'ended'

/** A session untouched by a request is rewritten (to extend its expiry) at most this often. */
const TOUCH_INTERVAL_MS = 60_000

/**
 * One visitor's session: key/value data that lives across requests, flash
 * data that lives for the next request only, and the CSRF token.
 *
 * Saving writes only what this request changed, merged into the record as
 * it is stored at that moment, so parallel requests on one session (a page
 * of components, an SPA) keep each other's keys. A session that holds no
 * data is not stored at all: its cookie carries its id, and its CSRF token
 * is derived from the id, so a visitor who only reads pages costs the store
 * nothing.
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
  /** What the store held at load (or the last save): a save writes only what differs. */
  private readonly loaded = new LoadedValues()
  /** Ids this request ended (regenerated or logged out), each with the expiry its cookies may carry. */
  private readonly ended: Array<{ id: string; until: number }> = []
  /** True when the stored data must be replaced rather than merged (flush, a new id). */
  private replace = false
  /** True when the store holds a record of this id (as far as this request knows). */
  private stored = false
  private derived?: { id: string; token: string }
  private openedFrom?: string

  private constructor(
    private sessionId: string,
    private readonly records: SessionRecords,
    readonly isNew: boolean,
    private readonly tokenKeys: Array<Buffer | KeyObject>,
  ) {}

  /**
   * The id the browser's session cookie named, when this session loaded
   * from it (undefined for a new one): the session middleware re-sends the
   * cookie only when the id changed, without parsing the cookie again. @internal
   *
   * @example
   * ```ts
   * if (session.cookieId !== session.id) ctx.cookies.set('kiln_session', session.cookieValue())
   * ```
   */
  get cookieId(): string | undefined {
    return this.openedFrom
  }

  /**
   * Loads the session named by the (opened) session cookie, or starts a new
   * one when the cookie is missing, malformed, expired or names an ended or
   * expired session. A session with nothing stored loads from its cookie
   * alone, until the expiry the cookie carries, so the cookie must be
   * sealed (`encryptCookies` does it in the `web` group): that is why a
   * client can never choose its own id. `tokenKeys` (see `csrfTokenKeys`)
   * derive the CSRF token from the id; without them a random token is
   * stored in the session.
   *
   * @example
   * ```ts
   * const session = await Session.load(store, ctx.cookies.get('kiln_session'), 120 * 60, { tokenKeys })
   * ```
   */
  static load(store: Storage, cookie: string | undefined, lifetimeSeconds: number, options: { tokenKeys?: Array<Buffer | KeyObject> } = {}): Promise<Session> {
    const opened = Session.open(store, cookie, lifetimeSeconds, options)
    return opened instanceof Session ? Promise.resolve(opened) : opened
  }

  /**
   * {@link Session.load}, without a promise when the store need not be
   * read (no cookie, or one that names no session): the session middleware
   * uses it, since each promise of a request costs an AsyncLocalStorage
   * hook on Node 20. @internal
   *
   * @example
   * ```ts
   * const opened = Session.open(store, cookie, 7200, { tokenKeys })
   * const session = opened instanceof Session ? opened : await opened
   * ```
   */
  static open(
    store: Storage,
    cookie: string | undefined,
    lifetimeSeconds: number,
    options: { tokenKeys?: Array<Buffer | KeyObject> } = {},
  ): Session | Promise<Session> {
    const records = new SessionRecords(store, lifetimeSeconds)
    const keys = options.tokenKeys ?? []
    const named = parseSessionCookie(cookie)
    if (!named) return Session.fresh(records, keys)
    // The store is read even for a session kept in its cookie alone: the read is what finds a tombstone. A store that
    // knows at once that nothing is there (the fs store's stat) answers without a promise.
    const opened = (record: StoredSession | undefined): Session => {
      if (record && !record.destroyed && record.expires_at > Date.now()) {
        const session = new Session(named.id, records, false, keys)
        session.openedFrom = named.id
        session.data = record.data
        session.loaded.mark(record.data, record.expires_at)
        session.stored = true
        ageFlashOnLoad(session.data)
        return session
      }
      // Nothing stored for it (an ended or expired record is something): the cookie's own expiry decides.
      if (!record && named.expiresAt !== undefined && named.expiresAt > Date.now()) {
        const session = new Session(named.id, records, false, keys)
        session.openedFrom = named.id
        session.loaded.mark({}, named.expiresAt)
        return session
      }
      return Session.fresh(records, keys)
    }
    return records.knownMissing(named.id) ? opened(undefined) : records.find(named.id).then(opened)
  }

  private static fresh(records: SessionRecords, keys: Array<Buffer | KeyObject>): Session {
    const session = new Session(randomId(), records, true, keys)
    session.replace = true
    return session
  }

  /** The session id (never shown to the client unencrypted). @example `session.id` */
  get id(): string {
    return this.sessionId
  }

  /** What the session cookie carries: the id and when the session expires unless used again. @example `ctx.cookies.set('kiln_session', session.cookieValue())` */
  cookieValue(): string {
    return sessionCookieValue(this.sessionId, this.loaded.expiresAt || Date.now() + this.records.lifetimeSeconds * 1000)
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

  /** Stores a value for the next request only. @example `session.flash('status', 'Saved.')` */
  flash(key: string, value: unknown): void {
    this.put(key, value)
    markFlashed(this.data, key)
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
    this.flash('_old_input', flashableInput(input))
  }

  /** Input flashed by the previous request, or `fallback`. @example `session.old('email', '')` */
  old<T = unknown>(key?: string, fallback?: T): T {
    const input = this.get<Record<string, unknown>>('_old_input', {})
    if (key === undefined) return input as T
    return (Object.prototype.hasOwnProperty.call(input, key) ? input[key] : fallback) as T
  }

  /**
   * The CSRF token of this session: one set by `regenerateToken()`, else an
   * HMAC of the id (nothing to store, and a new id gives a new token).
   *
   * @example
   * ```ts
   * session.token()
   * ```
   */
  token(): string {
    const own = this.ownToken()
    if (own) return own
    const key = this.tokenKeys[0]
    if (!key) return this.regenerateToken()
    if (this.derived?.id !== this.sessionId) this.derived = { id: this.sessionId, token: derivedCsrfToken(key, this.sessionId) }
    return this.derived.token
  }

  /**
   * True when `given` is this session's CSRF token (compared in constant
   * time); a token derived under a previous `APP_KEY` still matches, so a
   * key rotation does not refuse forms already on screen.
   *
   * @example
   * ```ts
   * if (!session.matchesToken(request.header('x-csrf-token'))) throw new HttpException(419, 'CSRF token mismatch.')
   * ```
   */
  matchesToken(given: unknown): boolean {
    const derivedFrom = this.ownToken() ? undefined : { id: this.sessionId, previousKeys: this.tokenKeys.slice(1) }
    return tokenMatches(given, this.token(), derivedFrom)
  }

  /** A fresh random CSRF token, stored in the session. @example `session.regenerateToken()` */
  regenerateToken(): string {
    const token = randomId()
    this.put('_token', token)
    return token
  }

  /** A new id for the same data; the old id is ended for good (login calls this, so a planted or copied id is worthless). @example `await session.regenerate()` */
  async regenerate(): Promise<void> {
    // Only the id this request loaded can be known elsewhere; ids made since were never sent. It is
    // ended even when nothing was stored for it, so that its cookie cannot come back: the tombstone
    // lives at least as long as the cookie this request was sent (a lifetime lowered since included).
    if (!this.isNew && this.ended.length === 0) this.ended.push({ id: this.sessionId, until: this.loaded.expiresAt })
    this.sessionId = randomId()
    this.replace = true
    this.stored = false
  }

  /** A new id, no data and a new CSRF token; the old id is ended everywhere (logout). @example `await session.invalidate()` */
  async invalidate(): Promise<void> {
    this.flush()
    await this.regenerate()
    // The new id derives a new token, so the empty session needs no record.
    if (this.tokenKeys.length === 0) this.regenerateToken()
  }

  /**
   * Persists the session (called by the session middleware after the
   * response): ages flash data, ends ids this request replaced, and writes
   * this request's changes merged into the stored record. A session that was
   * ended by another request meanwhile (a logout, or a login, in another
   * tab) is not written back.
   *
   * A session with no data and no record is not written: its cookie
   * carries it (the CSRF token is derived from the id), so the store holds
   * only sessions with something in them.
   *
   * Resolves to `'written'` (saved: the cookie should be sent, to carry a
   * new id or extend its life), `'unchanged'` (nothing to save: the
   * browser's cookie is still right) or `'ended'` (another request ended
   * this id: send no cookie, the browser already holds the one that
   * replaced it).
   *
   * @example
   * ```ts
   * if ((await session.save()) === 'written') ctx.cookies.set('kiln_session', session.cookieValue())
   * ```
   */
  save(): Promise<SaveResult> {
    const saved = this.saveNow()
    return typeof saved === 'string' ? Promise.resolve(saved) : saved
  }

  /**
   * {@link Session.save}, without a promise when nothing goes to the store
   * (the common case: a session unchanged, or kept in its cookie, and not
   * due for renewal). The session middleware uses it. @internal
   *
   * @example
   * ```ts
   * const result = session.saveNow()
   * const saved = typeof result === 'string' ? result : await result
   * ```
   */
  saveNow(): SaveResult | Promise<SaveResult> {
    ageFlashOnSave(this.data)
    const expiresAt = Date.now() + this.records.lifetimeSeconds * 1000
    if (this.ended.length === 0 && !this.stored && Object.keys(this.data).length === 0) {
      // Kept in its cookie alone: a new session (or one flushed) is sent without a store write.
      if (this.replace) {
        this.replace = false
        this.loaded.mark({}, expiresAt)
        return 'written'
      }
      if (expiresAt - this.loaded.expiresAt < TOUCH_INTERVAL_MS) return 'unchanged'
    } else if (this.ended.length === 0 && !this.replace && expiresAt - this.loaded.expiresAt < TOUCH_INTERVAL_MS) {
      if (this.loaded.changedKeys(this.data).length === 0) return 'unchanged'
    }
    return this.write()
  }

  private async write(): Promise<SaveResult> {
    for (const { id, until } of this.ended.splice(0)) await this.records.destroy(id, until)
    const expiresAt = Date.now() + this.records.lifetimeSeconds * 1000
    if (!this.stored && Object.keys(this.data).length === 0) return this.keepInCookie(expiresAt)
    if (this.replace) {
      const data = this.data
      const written = await this.records.update(this.sessionId, () => ({ data, expires_at: expiresAt }))
      this.replace = false
      this.loaded.mark(data, expiresAt)
      this.stored = written
      return written ? 'written' : 'ended'
    }
    const changed = this.loaded.changedKeys(this.data)
    if (changed.length === 0 && expiresAt - this.loaded.expiresAt < TOUCH_INTERVAL_MS) return 'unchanged'
    const written = await this.records.merge(this.sessionId, this.data, changed, expiresAt)
    this.loaded.mark(this.data, expiresAt)
    this.stored = written
    return written ? 'written' : 'ended'
  }

  /** Saves a session with nothing to store: only its cookie, with a new expiry, when new or due. */
  private async keepInCookie(expiresAt: number): Promise<SaveResult> {
    if (!this.replace && expiresAt - this.loaded.expiresAt < TOUCH_INTERVAL_MS) return 'unchanged'
    // Renewing a cookie the browser already has must not bring back an id that a login in another tab ended.
    if (!this.replace && (await this.records.find(this.sessionId))?.destroyed) return 'ended'
    this.replace = false
    this.loaded.mark({}, expiresAt)
    return 'written'
  }

  private ownToken(): string | undefined {
    const token = this.data._token
    return typeof token === 'string' && token.length === 40 ? token : undefined
  }

  /** True when something changed since load. @example `session.isDirty()` */
  isDirty(): boolean {
    return this.replace || this.loaded.changedKeys(this.data).length > 0
  }
}
