import type { HttpContext } from '../http/pipeline/http-context.ts'
import { KilnError } from '../support/errors.ts'
import { safeEqual } from '../security/safe-compare.ts'
import { secureCookie } from '../session/secure-cookie.ts'
import type { AuthUser, Guard, LoginOptions, UserProvider } from './contracts.ts'
import { parseRememberCookie, passwordFingerprint, type RememberTokens } from './remember-tokens.ts'

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
 * guard logs the user back in from it and rotates it. Logging out forgets it.
 *
 * @example
 * ```ts
 * // config/auth.ts
 * guards: { web: { driver: 'session', provider: 'users', remember: { table: 'remember_tokens' } } }
 * ```
 */
export class SessionGuard implements Guard {
  private readonly key: string
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
    if (id !== undefined && id !== null) return this.fromSession(session!, id)
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
    const remembered = parseRememberCookie(ctx.cookies.get(this.remember.options.cookie)) !== undefined
    await this.remember.forgetUser(user.getKey())
    if (remembered && keepThisDevice) await this.issueRememberCookie(ctx, user)
    else if (remembered) ctx.cookies.delete(this.remember.options.cookie)
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
    await session.invalidate()
    return undefined
  }

  /** True when the session is logged in as this user on this guard. */
  private holds(session: SessionLike, user: AuthUser): boolean {
    const id = session.get(this.key)
    return id !== undefined && id !== null && String(id) === String(user.getKey())
  }

  /** The session has no user: a valid remember cookie logs its user in again, with a new token. */
  private async fromRememberCookie(ctx: HttpContext): Promise<AuthUser | undefined> {
    if (!this.remember) return undefined
    const cookie = parseRememberCookie(ctx.cookies.get(this.remember.options.cookie))
    if (!cookie) return undefined
    const found = await this.remember.lookup(cookie)
    if (found.state === 'unknown') return undefined
    if (found.state === 'mismatch') {
      // A known selector with the wrong secret: an old, already rotated copy of the cookie. Someone else holds it; end them all.
      await this.remember.forgetUser(found.userId)
      ctx.cookies.delete(this.remember.options.cookie)
      return undefined
    }
    if (found.state === 'expired') {
      ctx.cookies.delete(this.remember.options.cookie)
      return undefined
    }
    await this.remember.forgetSelector(cookie.selector)
    const user = await this.provider.retrieveById(coerceKey(found.userId))
    if (!user || (found.passwordFingerprint ?? null) !== passwordFingerprint(user)) {
      ctx.cookies.delete(this.remember.options.cookie)
      return undefined
    }
    await this.login(ctx, user, { remember: true })
    return user
  }

  private async issueRememberCookie(ctx: HttpContext, user: AuthUser): Promise<void> {
    if (!this.remember) {
      throw new KilnError(`The "${this.name}" guard has no \`remember\` in config/auth.ts, so it cannot remember users.`, {
        code: 'E_REMEMBER_NOT_CONFIGURED',
      })
    }
    const { value, maxAge } = await this.remember.issue(user.getKey(), passwordFingerprint(user))
    ctx.cookies.set(this.remember.options.cookie, value, { maxAge, httpOnly: true, sameSite: 'lax', secure: secureCookies(ctx) })
  }

  private async forgetRememberCookie(ctx: HttpContext): Promise<void> {
    if (!this.remember) return
    const cookie = parseRememberCookie(ctx.cookies.get(this.remember.options.cookie))
    if (cookie) await this.remember.forgetSelector(cookie.selector)
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
