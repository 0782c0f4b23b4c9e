import type { Application } from '../application/application.ts'
import { DriverManager } from '../manager/driver-manager.ts'
import type { AuthUser, Guard, UserProvider } from './contracts.ts'

/**
 * The guard and user-provider registries of one app. Guards come from
 * `config/auth.ts` `guards`, providers from `providers`; plugins add drivers
 * (`tok` adds the `tok` and `token` guards).
 *
 * @example
 * ```ts
 * app.auth.guards.extend('tok', (app, { config }) => new TokGuard(app, config))
 * const guard = app.auth.guard('tok')
 * ```
 */
export class AuthManager {
  readonly guards: DriverManager<Guard, Application>
  readonly providers: DriverManager<UserProvider, Application>
  private readonly acting = new Map<string, AuthUser>()

  constructor(app: Application) {
    this.guards = new DriverManager<Guard, Application>(app, app.config, {
      kind: 'guard',
      file: 'auth',
      connectionsKey: 'guards',
      defaultKey: 'defaults.guard',
    })
    this.providers = new DriverManager<UserProvider, Application>(app, app.config, {
      kind: 'user provider',
      file: 'auth',
      connectionsKey: 'providers',
      defaultKey: 'defaults.provider',
    })
  }

  /** A configured guard (the default when omitted). @example `auth.guard('web')` */
  guard(name?: string): Guard {
    return this.guards.connection(name)
  }

  /** The default guard's name. @example `auth.defaultGuard() // 'web'` */
  defaultGuard(): string {
    return this.guards.defaultConnection()
  }

  /** A configured user provider. @example `auth.provider('users')` */
  provider(name: string): UserProvider {
    return this.providers.connection(name)
  }

  /**
   * Tests only: every request authenticates as `user` on `guard` until
   * `forgetActingAs()`.
   *
   * @example
   * ```ts
   * app.auth.actingAs(user, 'web')
   * ```
   */
  actingAs(user: AuthUser, guard?: string): void {
    this.acting.set(guard ?? this.defaultGuard(), user)
  }

  /** Ends `actingAs`. @example `auth.forgetActingAs()` */
  forgetActingAs(guard?: string): void {
    if (guard) this.acting.delete(guard)
    else this.acting.clear()
  }

  /** The user set by `actingAs` for a guard. @internal */
  actingUser(guard: string): AuthUser | undefined {
    return this.acting.get(guard)
  }
}
