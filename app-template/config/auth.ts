import { defineAuthConfig } from 'kiln-framework'
import { User } from '../app/models/user.ts'

/** Guards (how a request proves who it is) and user providers (where users come from). */
export default defineAuthConfig({
  defaults: { guard: 'web' },
  guards: {
    // "Remember me" on the login form: tokens in the remember_tokens table, a cookie that lasts 400 days.
    web: { driver: 'session', provider: 'users', remember: { table: 'remember_tokens', days: 400 } },
    tok: { driver: 'tok', provider: 'users' },
  },
  providers: {
    users: { driver: 'model', model: () => User },
  },
  // Password re-checks (ctx.auth.checkPassword: the profile's email change, new password, "log out other browsers",
  // deleting the account) count against /login's limiter, per user; one check per request at most.
  password_limiter: 'credentials',
})
