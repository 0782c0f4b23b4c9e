import { defineConfig } from 'kiln-framework'
import { User } from '../app/models/user.ts'

/** Guards (how a request proves who it is) and user providers (where users come from). */
export default defineConfig({
  defaults: { guard: 'web' },
  guards: {
    web: { driver: 'session', provider: 'users' },
    tok: { driver: 'tok', provider: 'users' },
  },
  providers: {
    users: { driver: 'model', model: () => User },
  },
})
