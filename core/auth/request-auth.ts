import { HttpException } from '../http/errors/http-exception.ts'
import { KilnError } from '../support/errors.ts'
import { isPromiseLike } from '../support/promise-like.ts'
import type { HttpContext } from '../http/pipeline/http-context.ts'
import type { AuthManager } from './auth-manager.ts'
import type { AuthUser, Guard, LoginOptions } from './contracts.ts'
import { verifyNothing } from './password-hasher.ts'
import { throttlePasswordCheck } from './password-checks.ts'

/**
 * Auth for one request: `ctx.auth`. Users are resolved once per guard and
 * cached for the request.
 *
 * @example
 * ```ts
 * Route.post('/login', async ({ auth, request }) => {
 *   if (!(await auth.attempt(request.only(['email', 'password'])))) abort(422)
 *   return { user: await auth.user() }
 * })
 * ```
 */
export class RequestAuth {
  private readonly resolved = new Map<string, AuthUser | undefined>()
  /** The guard that authenticated this request (set by the `auth` middleware). */
  guardName?: string

  constructor(
    private readonly ctx: HttpContext,
    private readonly manager: AuthManager,
  ) {}

  /** The user of a guard (the one that authenticated, else the default). @example `await ctx.auth.user()` */
  async user<U extends AuthUser = AuthUser>(guard?: string): Promise<U | undefined> {
    return (await this.userNow(guard)) as U | undefined
  }

  /**
   * {@link RequestAuth.user}, without a promise when the guard can tell at
   * once (a user already resolved, or a session guard with no user and no
   * remember-me cookie): `initializeAuth` runs on every `web` request. @internal
   *
   * @example
   * ```ts
   * const found = ctx.auth.userNow()
   * const user = isPromiseLike(found) ? await found : found
   * ```
   */
  userNow(guard?: string): AuthUser | undefined | Promise<AuthUser | undefined> {
    const name = guard ?? this.guardName ?? this.manager.defaultGuard()
    if (this.resolved.has(name)) return this.resolved.get(name)
    const acting = this.manager.actingUser(name)
    const driver = acting ? undefined : (this.manager.guard(name) as Guard & { authenticateNow?(ctx: HttpContext): ReturnType<RequestAuth['userNow']> })
    const found = acting ?? (driver!.authenticateNow ? driver!.authenticateNow(this.ctx) : driver!.authenticate(this.ctx))
    if (!isPromiseLike(found)) {
      this.resolved.set(name, found)
      return found
    }
    return Promise.resolve(found).then((user) => {
      this.resolved.set(name, user)
      return user
    })
  }

  /** True when the guard has a user. @example `if (await ctx.auth.check()) ...` */
  async check(guard?: string): Promise<boolean> {
    return (await this.user(guard)) !== undefined
  }

  /** The user's key. @example `await ctx.auth.id()` */
  async id(guard?: string): Promise<unknown> {
    return (await this.user(guard))?.getKey()
  }

  /**
   * Logs a user in on a session-capable guard (regenerating the session id).
   * `{ remember: true }` also sets a remember-me cookie, when the guard has
   * `remember` in config/auth.ts.
   *
   * @example
   * ```ts
   * await ctx.auth.login(user)
   * await ctx.auth.login(user, { remember: true })
   * ```
   */
  async login(user: AuthUser, guardOrOptions?: string | (LoginOptions & { guard?: string })): Promise<void> {
    const { guard, ...options } = typeof guardOrOptions === 'string' ? { guard: guardOrOptions } : (guardOrOptions ?? {})
    const name = guard ?? this.manager.defaultGuard()
    const driver = this.manager.guard(name)
    if (!driver.login) throw new KilnError(`The "${name}" guard cannot log users in.`, { code: 'E_GUARD_CANNOT_LOG_IN' })
    await driver.login(this.ctx, user, options)
    this.resolved.set(name, user)
    if (!this.guardName || this.guardName === name) this.ctx.request.setUser(user)
  }

  /** Logs the user out of a guard. @example `await ctx.auth.logout()` */
  async logout(guard?: string): Promise<void> {
    const name = guard ?? this.manager.defaultGuard()
    const driver = this.manager.guard(name)
    if (driver.logout) await driver.logout(this.ctx)
    this.resolved.set(name, undefined)
    this.ctx.request.setUser(undefined)
  }

  /**
   * Finds a user by credentials, checks the password, and logs them in.
   * Returns the user, or undefined on bad credentials.
   *
   * @example
   * ```ts
   * const user = await ctx.auth.attempt({ email, password })
   * const remembered = await ctx.auth.attempt({ email, password }, { remember: true })
   * ```
   */
  async attempt<U extends AuthUser = AuthUser>(
    credentials: Record<string, unknown>,
    guardOrOptions?: string | (LoginOptions & { guard?: string }),
  ): Promise<U | undefined> {
    const guard = typeof guardOrOptions === 'string' ? guardOrOptions : guardOrOptions?.guard
    const user = await this.validate<U>(credentials, guard)
    if (user) await this.login(user, guardOrOptions)
    return user
  }

  /**
   * After a password change: every device remembered for the user on a
   * session guard forgets them; this browser, if it was remembered, gets a
   * new remember-me cookie (`{ keepThisDevice: false }` ends it too, before
   * deleting an account).
   *
   * @example
   * ```ts
   * await user.setPassword(input)
   * await user.save()
   * await ctx.auth.forgetRememberedDevices(user)
   * ```
   */
  async forgetRememberedDevices(user: AuthUser, options: { guard?: string; keepThisDevice?: boolean } = {}): Promise<void> {
    const driver = this.manager.guard(options.guard) as {
      forgetRememberedDevices?(ctx: HttpContext, user: AuthUser, keepThisDevice: boolean): Promise<void>
    }
    await driver.forgetRememberedDevices?.(this.ctx, user, options.keepThisDevice ?? true)
  }

  /**
   * Checks the logged-in user's password, before an action that needs it
   * again (a new email address, a new password, deleting the account).
   * Throttled: at most one check per HTTP request (however many component
   * calls it carries), and the limits of the limiter named by
   * `auth.password_limiter` in config/auth.ts, counted per user (a right
   * password starts the count over). A refused check throws a 429 `HttpException` with
   * `Retry-After`, before the password is hashed: a component shows its
   * message as the field's error. With no user logged in, a 401.
   *
   * @example
   * ```ts
   * if (!(await ctx.auth.checkPassword(request.input('password')))) {
   *   throw new ValidationException({ password: ['The password is incorrect.'] })
   * }
   * ```
   */
  async checkPassword(password: string, options: { guard?: string } = {}): Promise<boolean> {
    const user = await this.user(options.guard)
    if (!user) throw new HttpException(401, 'Unauthenticated.')
    const passed = await throttlePasswordCheck(this.ctx, user)
    const provider = this.manager.guard(options.guard ?? this.guardName).provider
    if (typeof password !== 'string' || password.length === 0 || !provider) return false
    if (!(await provider.validateCredentials(user, { password }))) return false
    // Right: the count of wrong guesses starts over, as after a login.
    await passed()
    return true
  }

  /**
   * Call it once a new password is saved for the logged-in user: this
   * browser stays logged in (with a new session id and the new password's
   * fingerprint; the CSRF token stays), every other session of the user
   * ends on its next request, and every remembered device is forgotten
   * (this browser, if it was remembered, gets a fresh cookie). It acts on
   * every session guard, or on `guard`. Called for another user (an admin
   * setting a password), it ends that user's sessions and leaves this one alone.
   *
   * @example
   * ```ts
   * await user.setPassword(input)
   * await user.save()
   * await ctx.auth.passwordChanged(user)
   * ```
   */
  async passwordChanged(user: AuthUser, options: { guard?: string } = {}): Promise<void> {
    for (const name of options.guard ? [options.guard] : this.guardNames()) {
      const driver = this.manager.guard(name) as { passwordChanged?(ctx: HttpContext, user: AuthUser): Promise<void> }
      await driver.passwordChanged?.(this.ctx, user)
    }
  }

  /**
   * Laravel's `logoutOtherDevices`: checks the password (as
   * {@link RequestAuth.checkPassword}, throttled), saves it again with a
   * new salt, then {@link RequestAuth.passwordChanged}: every other session
   * and remembered device of the user ends, this one stays. False for a
   * wrong password (nothing ended). The user model needs `setPassword` and
   * `save` (the `Authenticatable` mixin and Model give them).
   *
   * @example
   * ```ts
   * if (!(await ctx.auth.logoutOtherDevices(request.input('password')))) {
   *   throw new ValidationException({ password: ['The password is incorrect.'] })
   * }
   * ```
   */
  async logoutOtherDevices(password: string, options: { guard?: string } = {}): Promise<boolean> {
    const user = (await this.user(options.guard)) as (AuthUser & Partial<Rehashable>) | undefined
    if (!user) throw new HttpException(401, 'Unauthenticated.')
    if (typeof user.setPassword !== 'function' || typeof user.save !== 'function') {
      throw new KilnError('logoutOtherDevices needs a user model with setPassword(password) and save() (the Authenticatable mixin on a Model).', {
        code: 'E_USER_CANNOT_REHASH',
      })
    }
    if (!(await this.checkPassword(password, options))) return false
    // The same password under a new salt: a new hash, so a new fingerprint that no other session holds.
    await user.setPassword(password)
    await user.save()
    // Every session guard: a first-party SPA checks through `tok` but is logged in on `web`.
    await this.passwordChanged(user)
    return true
  }

  /** Every configured guard's name: the session guards among them act on a password change. */
  private guardNames(): string[] {
    return Object.keys(this.ctx.app.config.get<Record<string, unknown>>('auth.guards', {}))
  }

  /**
   * Checks credentials without logging in. An unknown user costs the same
   * password check as a known one, so timing does not reveal accounts.
   *
   * @example
   * ```ts
   * const user = await ctx.auth.validate({ email, password })
   * ```
   */
  async validate<U extends AuthUser = AuthUser>(credentials: Record<string, unknown>, guard?: string): Promise<U | undefined> {
    const provider = this.manager.guard(guard).provider
    if (!provider) return undefined
    const user = await provider.retrieveByCredentials(credentials)
    if (!user) {
      // As slow as a wrong password, so the answer does not reveal whether the account exists.
      if (typeof credentials.password === 'string') await verifyNothing(credentials.password)
      return undefined
    }
    if (!(await provider.validateCredentials(user, credentials))) return undefined
    return user as U
  }
}

/** A user model that can store a new password hash. */
interface Rehashable {
  setPassword(password: string): Promise<unknown> | unknown
  save(): Promise<unknown>
}
