import { hashPassword, verifyPassword } from './password-hasher.ts'

type Constructor<T = object> = new (...args: any[]) => T

/**
 * The mixin for user models: password hashing (scrypt, salted, parameters in
 * the hash) and a constant-time check. Mix it in before the base model:
 * `class User extends Authenticatable(Model)`.
 *
 * @example
 * ```ts
 * class User extends Authenticatable(Model) {
 *   static table = 'users'
 *   static hidden = ['password']
 * }
 * const user = new User({ email: 'a@example.com' })
 * await user.setPassword('secret')
 * await user.verifyPassword('secret') // true
 * ```
 */
export function Authenticatable<TBase extends Constructor>(Base: TBase) {
  class AuthenticatableModel extends Base {
    /** The column holding the password hash. */
    static passwordColumn = 'password'

    /** Hashes and sets the password (not saved until `save()`). @example `await user.setPassword(input)` */
    async setPassword(plain: string): Promise<this> {
      const column = (this.constructor as typeof AuthenticatableModel).passwordColumn
      ;(this as Record<string, unknown>)[column] = await hashPassword(plain)
      return this
    }

    /** The stored password hash (remember-me tokens end when it changes). @example `user.getAuthPassword()` */
    getAuthPassword(): string | undefined {
      const column = (this.constructor as typeof AuthenticatableModel).passwordColumn
      const hash = (this as Record<string, unknown>)[column]
      return typeof hash === 'string' ? hash : undefined
    }

    /** Checks a password in constant time. @example `await user.verifyPassword(input)` */
    async verifyPassword(plain: string): Promise<boolean> {
      const column = (this.constructor as typeof AuthenticatableModel).passwordColumn
      return verifyPassword(plain, (this as Record<string, unknown>)[column] as string | undefined)
    }
  }
  return AuthenticatableModel
}
