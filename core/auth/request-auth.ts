import { KilnError } from '../support/errors.ts'
import { isPromiseLike } from '../support/promise-like.ts'
import type { HttpContext } from '../http/pipeline/http-context.ts'
import type { AuthManager } from './auth-manager.ts'
import type { AuthUser, Guard, LoginOptions } from './contracts.ts'
import { verifyNothing } from './password-hasher.ts'

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
