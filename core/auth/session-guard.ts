import type { HttpContext } from '../http/pipeline/http-context.ts'
import { KilnError } from '../support/errors.ts'
import { safeEqual } from '../security/safe-compare.ts'
import { secureCookie } from '../session/secure-cookie.ts'
import type { AuthUser, Guard, LoginOptions, UserProvider } from './contracts.ts'
import { parseRememberCookie, passwordFingerprint, type IssuedRememberToken, type RememberCookie, type RememberTokens } from './remember-tokens.ts'

/** The part of the session the session guard uses. */
interface SessionLike {
  get(key: string): unknown
  put(key: string, value: unknown): void
  forget(key: string): void
  regenerate(): Promise<void> | void
  regenerateToken(): string
  invalidate(): Promise<void> | void
}

/**
 * The `session` guard: remembers the user's key in the session. Logging in
 * regenerates the session id and the CSRF token (no fixation); logging out
 * invalidates the session, so a copy of the old cookie is refused everywhere.
 *
 * The session also keeps a fingerprint of the user's password hash (never
 * the hash): a session whose fingerprint no longer matches the user's
 * password (changed or reset since, on any machine) is ended on its next
 * request, as Laravel's `AuthenticateSession` does. It reads only the
 * session's own data, so it holds for every session store.
 *
 * With `remember` configured, `login(user, { remember: true })` also sets a
 * long-lived cookie (see RememberTokens); when the session has expired, the
 * guard logs the user back in from it and rotates its token, keeping its
 * series. An old token replayed after the grace is a stolen cookie: every
 * remembered login of the user is forgotten, and the sessions that came from
 * one end on their next request (the session remembers its series and the
 * guard checks that it still exists). Logging out forgets it.
 *
 * @example
 * ```ts
 * // config/auth.ts
 * guards: { web: { driver: 'session', provider: 'users', remember: { table: 'remember_tokens' } } }
 * ```
 */
export class SessionGuard implements Guard {
  private readonly key: string
  /** The session key naming the remember-me series this session came from or created. */
  private readonly seriesKey: string
  /** The session key of the password fingerprint stored at login. */
  private readonly passwordKey: string

  constructor(
    readonly name: string,
    // Resolved on first use, so an app without users configured can still serve web routes.
    private readonly resolveProvider: () => UserProvider,
    /** Remember-me tokens, when the guard's config has `remember`. */
    readonly remember?: RememberTokens,
  ) {
    this.key = `login_${name}`
    this.seriesKey = `remember_series_${name}`
    this.passwordKey = `password_hash_${name}`
  }

  get provider(): UserProvider {
    return this.resolveProvider()
  }

  async authenticate(ctx: HttpContext): Promise<AuthUser | undefined> {
    return this.authenticateNow(ctx)
  }

  /**
   * {@link SessionGuard.authenticate}, without a promise when no user can be
   * found (no user in the session, no remember-me cookie): the case of every
   * guest's `web` request, where `initializeAuth` then adds no promise (each
   * costs an AsyncLocalStorage hook on Node 20). @internal
   *
   * @example
   * ```ts
   * const found = guard.authenticateNow(ctx)
   * const user = isPromiseLike(found) ? await found : found
   * ```
   */
  authenticateNow(ctx: HttpContext): AuthUser | undefined | Promise<AuthUser | undefined> {
    const session = sessionOf(ctx, false)
    const id = session?.get(this.key)
    if (id !== undefined && id !== null) {
      if (this.sessionSeries(session!) !== undefined)
        return this.seriesAlive(ctx, session!, id).then((alive) => (alive ? this.fromSession(session!, id) : undefined))
      return this.fromSession(session!, id)
    }
    if (!session || !this.remember || parseRememberCookie(ctx.cookies.get(this.remember.options.cookie)) === undefined) return undefined
    return this.fromRememberCookie(ctx)
  }

  async login(ctx: HttpContext, user: AuthUser, options: LoginOptions = {}): Promise<void> {
    const session = sessionOf(ctx, true)!
    // A new id and a new CSRF token: neither a planted cookie nor a token read before login works after it.
    await session.regenerate()
    session.regenerateToken()
    session.put(this.key, user.getKey())
    session.put(this.passwordKey, passwordFingerprint(user))
    if (options.remember) await this.issueRememberCookie(ctx, user)
    else session.forget(this.seriesKey)
  }

  /**
   * After a new password was saved for `user`: when this session is that
   * user's, it gets a new id (the CSRF token stays, so the page keeps
   * working) and the new password fingerprint, so it stays logged in while
   * every other session of the user ends on its next request. Every
   * remembered device is forgotten; this browser, if it was remembered,
   * gets a fresh cookie.
   *
   * @example
   * ```ts
   * await (auth.guard('web') as SessionGuard).passwordChanged(ctx, user)
   * ```
   */
  async passwordChanged(ctx: HttpContext, user: AuthUser): Promise<void> {
    const session = sessionOf(ctx, false)
    const mine = session !== undefined && this.holds(session, user)
    if (mine) {
      // regenerate() keeps the data, and with it the CSRF token login stored: the open page's next request still works.
      await session.regenerate()
      session.put(this.passwordKey, passwordFingerprint(user))
    }
    await this.forgetRememberedDevices(ctx, user, mine)
  }

  async logout(ctx: HttpContext): Promise<void> {
    await this.forgetRememberCookie(ctx)
    const session = sessionOf(ctx, false)
    if (!session) return
    session.forget(this.key)
    await session.invalidate()
  }

  /**
   * Ends every remembered device of a user (after a password change); when
   * this request's browser was remembered, it gets a fresh token.
   *
   * @example
   * ```ts
   * await (auth.guard('web') as SessionGuard).forgetRememberedDevices(ctx, user)
   * ```
   */
  async forgetRememberedDevices(ctx: HttpContext, user: AuthUser, keepThisDevice = true): Promise<void> {
    if (!this.remember) return
    const session = sessionOf(ctx, false)
    const loggedIn = session?.get(this.key)
    // Another user's browser (an admin changing someone's password) keeps its own cookie and series.
    if (loggedIn !== undefined && loggedIn !== null && String(loggedIn) !== String(user.getKey())) return this.remember.forgetUser(user.getKey())
    const remembered =
      parseRememberCookie(ctx.cookies.get(this.remember.options.cookie)) !== undefined || (session !== undefined && this.sessionSeries(session) !== undefined)
    await this.remember.forgetUser(user.getKey())
    // A new series, which this session now remembers: its old one is gone with the others and would end it on the next request.
    if (remembered && keepThisDevice) return this.issueRememberCookie(ctx, user)
    session?.forget(this.seriesKey)
    if (ctx.cookies.get(this.remember.options.cookie) !== undefined) ctx.cookies.delete(this.remember.options.cookie)
  }

  /**
   * The session's user, if the password it logged in with is still the
   * user's: a fingerprint that is missing (a session from before this
   * check) or different (the password changed or was reset since) ends
   * the session, as a logout would.
   */
  private async fromSession(session: SessionLike, id: unknown): Promise<AuthUser | undefined> {
    const user = await this.provider.retrieveById(id)
    if (!user) return undefined
    const stored = session.get(this.passwordKey)
    const current = passwordFingerprint(user)
    const matches = stored === null ? current === null : typeof stored === 'string' && current !== null && safeEqual(stored, current)
    if (matches) return user
    session.forget(this.key)
    session.forget(this.passwordKey)
    session.forget(this.seriesKey)
    await session.invalidate()
    return undefined
  }

  /** True when the session is logged in as this user on this guard. */
  private holds(session: SessionLike, user: AuthUser): boolean {
    const id = session.get(this.key)
    return id !== undefined && id !== null && String(id) === String(user.getKey())
  }

  /**
   * The session has no user: a valid remember cookie logs its user in again.
   * The current token is rotated (same series, new token, new cookie); the
   * token it replaced, sent again within the grace by a parallel request of
   * the same browser, logs in without rotating; any other token under a known
   * series is a stolen cookie.
   */
  private async fromRememberCookie(ctx: HttpContext): Promise<AuthUser | undefined> {
    const remember = this.remember
    const cookie = parseRememberCookie(remember && ctx.cookies.get(remember.options.cookie))
    if (!remember || !cookie) return undefined
    let found = await remember.lookup(cookie)
    if (found.state === 'valid' || found.state === 'previous') {
      const user = await this.provider.retrieveById(coerceKey(found.userId))
      if (!user || found.passwordFingerprint !== passwordFingerprint(user)) {
        await remember.forgetSelector(cookie.selector)
        ctx.cookies.delete(remember.options.cookie)
        return undefined
      }
      const rotated = found.state === 'valid' ? await remember.rotate(cookie) : undefined
      // Another request with the same cookie rotated it first: this one falls in the grace (or is refused if the series went meanwhile).
      if (found.state === 'valid' && !rotated) found = await remember.lookup(cookie)
      if (rotated || found.state === 'previous') return this.loginFromSeries(ctx, user, cookie, rotated)
    }
    if (found.state === 'stolen') await this.stolen(ctx, found.userId)
    ctx.cookies.delete(remember.options.cookie)
    return undefined
  }

  /** Logs in from a remember cookie; the session remembers the series, and the cookie is rewritten only when this request rotated it. */
  private async loginFromSeries(ctx: HttpContext, user: AuthUser, cookie: RememberCookie, rotated: IssuedRememberToken | undefined): Promise<AuthUser> {
    await this.login(ctx, user)
    sessionOf(ctx, true)!.put(this.seriesKey, cookie.selector)
    if (rotated) this.setRememberCookie(ctx, rotated)
    return user
  }

  /**
   * An old token under a live series: someone else holds a copy of the
   * cookie. Every remembered login of the user is forgotten; the sessions
   * they started end on their next request (see seriesAlive).
   */
  private async stolen(ctx: HttpContext, userId: string): Promise<void> {
    await this.remember!.forgetUser(userId)
    // One line for the operator: the user id and the address, never the cookie.
    ctx.app.logger.warn(
      { guard: this.name, userId, ip: ctx.request.ip() },
      'A used remember-me cookie was replayed: every remembered login of the user is forgotten',
    )
  }

  /**
   * A session that came from (or created) a remember cookie lives only as
   * long as its series: one indexed lookup per request, so a theft, a logout
   * or a password change seen on any machine ends it. A session whose series
   * is gone is invalidated.
   */
  private async seriesAlive(ctx: HttpContext, session: SessionLike, id: unknown): Promise<boolean> {
    const owner = await this.remember!.seriesUser(this.sessionSeries(session)!)
    if (owner !== undefined && owner === String(id)) return true
    session.forget(this.key)
    session.forget(this.seriesKey)
    await session.invalidate()
    if (ctx.cookies.get(this.remember!.options.cookie) !== undefined) ctx.cookies.delete(this.remember!.options.cookie)
    return false
  }

  private sessionSeries(session: SessionLike): string | undefined {
    if (!this.remember) return undefined
    const series = session.get(this.seriesKey)
    return typeof series === 'string' ? series : undefined
  }

  private async issueRememberCookie(ctx: HttpContext, user: AuthUser): Promise<void> {
    if (!this.remember) {
      throw new KilnError(`The "${this.name}" guard has no \`remember\` in config/auth.ts, so it cannot remember users.`, {
        code: 'E_REMEMBER_NOT_CONFIGURED',
      })
    }
    const issued = await this.remember.issue(user.getKey(), passwordFingerprint(user))
    sessionOf(ctx, false)?.put(this.seriesKey, issued.selector)
    this.setRememberCookie(ctx, issued)
  }

  private setRememberCookie(ctx: HttpContext, { value, maxAge }: IssuedRememberToken): void {
    ctx.cookies.set(this.remember!.options.cookie, value, { maxAge, httpOnly: true, sameSite: 'lax', secure: secureCookies(ctx) })
  }

  /** Logging out forgets this session's series and the cookie's. */
  private async forgetRememberCookie(ctx: HttpContext): Promise<void> {
    if (!this.remember) return
    const session = sessionOf(ctx, false)
    const selectors = new Set([session && this.sessionSeries(session), parseRememberCookie(ctx.cookies.get(this.remember.options.cookie))?.selector])
    for (const selector of selectors) if (selector) await this.remember.forgetSelector(selector)
    session?.forget(this.seriesKey)
    if (ctx.cookies.get(this.remember.options.cookie) !== undefined) ctx.cookies.delete(this.remember.options.cookie)
  }
}

/** The session cookie's rule: `session.secure`, else whether APP_URL or the request is https. */
function secureCookies(ctx: HttpContext): boolean {
  return secureCookie(ctx, ctx.app.config.get<boolean | undefined>('session.secure'))
}

/** A user key read back from the table's text column: numeric keys become numbers again. */
function coerceKey(id: string): string | number {
  return /^[1-9]\d{0,15}$/.test(id) ? Number(id) : id
}

function sessionOf(ctx: HttpContext, required: boolean): SessionLike | undefined {
  const session = (ctx as unknown as { session?: SessionLike }).session
  if (!session && required) {
    throw new KilnError('The session guard needs a session: put the route in the `web` middleware group.')
  }
  return session
}
