import type { HttpContext } from '../http/pipeline/http-context.ts'

/** What auth needs from a user object: its identifier. */
export interface AuthUser {
  getKey(): unknown
}

/**
 * Finds users for guards. The `model` provider looks them up through a Model
 * class; apps can register others with `auth.providers.extend(...)`.
 */
export interface UserProvider<U extends AuthUser = AuthUser> {
  retrieveById(id: unknown): Promise<U | undefined>
  /** Looks a user up by every credential except the password. */
  retrieveByCredentials(credentials: Record<string, unknown>): Promise<U | undefined>
  /** Checks the password (or other secret) of the credentials against the user. */
  validateCredentials(user: U, credentials: Record<string, unknown>): Promise<boolean>
  /** The class of user this provider returns (for guards that check ownership, like tok). */
  readonly model?: unknown
}

/** How `login` keeps the user: `remember` also sets a long-lived remember-me cookie (session guards with `remember` configured). */
export interface LoginOptions {
  remember?: boolean
}

/**
 * A guard driver: stateless, one per configured guard. `authenticate` finds
 * the request's user; session-like guards also log users in and out.
 *
 * @example
 * ```ts
 * app.auth.guards.extend('header', (app, { config }) => ({
 *   async authenticate(ctx) { return ctx.request.header('x-user') === 'demo' ? demoUser : undefined },
 * }))
 * ```
 */
export interface Guard<U extends AuthUser = AuthUser> {
  authenticate(ctx: HttpContext): Promise<U | undefined>
  login?(ctx: HttpContext, user: U, options?: LoginOptions): Promise<void>
  logout?(ctx: HttpContext): Promise<void>
  /** The provider this guard reads users from. */
  readonly provider?: UserProvider<U>
}
