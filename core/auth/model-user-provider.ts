import type { AuthUser, UserProvider } from './contracts.ts'

/** The Model statics the provider uses. */
export interface UserModelClass {
  find(id: unknown): Promise<AuthUser | undefined | null>
  query(): { where(column: string, op: string, value: unknown): { first(): Promise<AuthUser | undefined | null> } }
}

/** A user that can check its own password (the `Authenticatable` mixin). */
interface VerifiesPassword {
  verifyPassword(plain: string): Promise<boolean>
}

/**
 * The `model` user provider: finds users through a Model class, checks
 * passwords with the `Authenticatable` mixin's `verifyPassword`.
 *
 * @example
 * ```ts
 * providers: { users: { driver: 'model', model: () => User } }
 * ```
 */
export class ModelUserProvider implements UserProvider {
  constructor(private readonly resolveModel: () => UserModelClass) {}

  get model(): UserModelClass {
    return this.resolveModel()
  }

  async retrieveById(id: unknown): Promise<AuthUser | undefined> {
    if (typeof id !== 'string' && typeof id !== 'number') return undefined
    return (await this.model.find(id)) ?? undefined
  }

  async retrieveByCredentials(credentials: Record<string, unknown>): Promise<AuthUser | undefined> {
    const entries = Object.entries(credentials).filter(([key]) => !key.includes('password'))
    if (entries.length === 0) return undefined
    let query = this.model.query() as unknown as { where(c: string, o: string, v: unknown): unknown; first(): Promise<AuthUser | null | undefined> }
    for (const [key, value] of entries) {
      if (typeof value !== 'string' && typeof value !== 'number') return undefined
      query = query.where(key, '=', value) as typeof query
    }
    return (await query.first()) ?? undefined
  }

  async validateCredentials(user: AuthUser, credentials: Record<string, unknown>): Promise<boolean> {
    const password = credentials.password
    if (typeof password !== 'string') return false
    const verifier = user as unknown as Partial<VerifiesPassword>
    return typeof verifier.verifyPassword === 'function' ? verifier.verifyPassword(password) : false
  }
}
