import { Authenticatable, Model } from 'kiln-framework'
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
}
