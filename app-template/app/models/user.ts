import { Authenticatable, currentApp, Model } from 'kiln-framework'
import { HasApiTokens } from 'kiln-framework/tok'

/**
 * A user of the application. `HasApiTokens` adds personal access tokens,
 * `Authenticatable` password hashing and checking; `hidden` keeps the hash
 * out of every JSON response.
 */
export class User extends HasApiTokens(Authenticatable(Model)) {
  static table = 'users'
  static fillable = ['name', 'email']
  static hidden = ['password']

  declare id: number
  declare name: string
  declare email: string
  declare password: string
  /** The storage key of the avatar chosen on /profile (see app/components/profile.ts), or null. */
  declare avatar: string | null
  /** When the user opened the link of the verification mail (app/auth/email-verification.ts); null until then. */
  declare email_verified_at: Date | string | null

  /**
   * Whether another account has this email, in any letter case (registration
   * and the profile store emails in lower case; older rows may not be).
   *
   * @example
   * ```ts
   * if (await User.emailTaken('ada@example.com')) ...
   * ```
   */
  static async emailTaken(email: string, exceptId?: number): Promise<boolean> {
    const db = await currentApp().service('db').kysely()
    let query = db
      .selectFrom('users')
      .select('id')
      .where((eb) => eb(eb.fn<string>('lower', ['email']), '=', email.toLowerCase()))
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId)
    return (await query.executeTakeFirst()) !== undefined
  }
}
