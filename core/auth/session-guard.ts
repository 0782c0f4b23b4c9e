import type { HttpContext } from '../http/pipeline/http-context.ts'
import { KilnError } from '../support/errors.ts'
import type { AuthUser, Guard, UserProvider } from './contracts.ts'

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
 * @example
 * ```ts
 * // config/auth.ts
 * guards: { web: { driver: 'session', provider: 'users' } }
 * ```
 */
export class SessionGuard implements Guard {
  private readonly key: string

  constructor(
    readonly name: string,
    // Resolved on first use, so an app without users configured can still serve web routes.
    private readonly resolveProvider: () => UserProvider,
  ) {
    this.key = `login_${name}`
  }

  get provider(): UserProvider {
    return this.resolveProvider()
  }

  async authenticate(ctx: HttpContext): Promise<AuthUser | undefined> {
    const session = sessionOf(ctx, false)
    const id = session?.get(this.key)
    if (id === undefined || id === null) return undefined
    return this.provider.retrieveById(id)
  }

  async login(ctx: HttpContext, user: AuthUser): Promise<void> {
    const session = sessionOf(ctx, true)!
    // A new id and a new CSRF token: neither a planted cookie nor a token read before login works after it.
    await session.regenerate()
    session.regenerateToken()
    session.put(this.key, user.getKey())
  }

  async logout(ctx: HttpContext): Promise<void> {
    const session = sessionOf(ctx, false)
    if (!session) return
    session.forget(this.key)
    await session.invalidate()
  }
}

function sessionOf(ctx: HttpContext, required: boolean): SessionLike | undefined {
  const session = (ctx as unknown as { session?: SessionLike }).session
  if (!session && required) {
    throw new KilnError('The session guard needs a session: put the route in the `web` middleware group.')
  }
  return session
}
