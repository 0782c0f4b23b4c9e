import { User } from '../../app/models/user.ts'
// The factory registers itself with User when loaded: `User.factory()` then uses it.
import '../factories/user-factory.ts'

/** The users `kiln db:seed` creates, their emails verified; every one logs in with the password `password`. */
export const SEEDED_USERS = [
  { name: 'Test User', email: 'test@example.com' },
  { name: 'Maria Garcia', email: 'maria@example.com' },
  { name: 'Sam Lee', email: 'sam@example.com' },
] as const

/**
 * `kiln db:seed`: the demo users above, made by their factory
 * (database/factories/user-factory.ts: verified, with the password
 * `password`). Running it again adds only the ones that are missing.
 */
export default async function seed(): Promise<void> {
  for (const attributes of SEEDED_USERS) {
    if (await User.query().where('email', '=', attributes.email).first()) continue
    await User.factory().create(attributes)
  }
}
