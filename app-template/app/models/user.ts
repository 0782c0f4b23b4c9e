import { Authenticatable, Model } from 'kiln'

/**
 * A user of the application. `Authenticatable` adds password hashing and
 * checking; `hidden` keeps the hash out of every JSON response.
 */
export class User extends Authenticatable(Model) {
  static table = 'users'
  static fillable = ['name', 'email']
  static hidden = ['password']

  declare id: number
  declare name: string
  declare email: string
  declare password: string
}
