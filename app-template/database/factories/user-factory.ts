import { defineFactory, hashPassword } from 'kiln-framework'
import { User } from '../../app/models/user.ts'

// Hashing is slow on purpose: every user a factory makes shares one hash of "password", made on first use.
let passwordHash: Promise<string> | undefined

/**
 * Users for seeders and tests, verified, with the password `password`.
 *
 *     await User.factory().count(3).create()
 *     await User.factory().state('unverified').create({ email: 'new@example.com' })
 */
export default defineFactory(
  User,
  async ({ fake }) => ({
    name: fake.name(),
    email: fake.email(),
    password: await (passwordHash ??= hashPassword('password')),
    email_verified_at: new Date(),
  }),
  {
    states: {
      // Has not followed the link of the verification mail yet.
      unverified: { email_verified_at: null },
    },
  },
)
