import { fileURLToPath } from 'node:url'
import { definePlugin, providerFor, registerMigrations, type Plugin } from '../../core/index.ts'
import { checkAbilities, checkForAnyAbility, requireAbilities } from './abilities-middleware.ts'
import { pruneExpiredCommand } from './prune-command.ts'
import { defaultStatefulDomains } from './stateful.ts'
import { tokConfigSchema } from './tok-config.ts'
import { startTokenCache } from './token-cache-registry.ts'
import { TokGuard } from './personal-access-token-guard.ts'
import { TokenGuard, type TokenGuardConfig } from './api-token-column-guard.ts'

const MIGRATIONS = fileURLToPath(new URL('./migrations', import.meta.url))
const CONFIG_STUB = fileURLToPath(new URL('./stubs/tok.ts', import.meta.url))

/**
 * The tok plugin: personal access tokens and the `tok` guard, the
 * `abilities`/`ability` middleware, the token migration and
 * `tok:prune-expired`.
 *
 * @example
 * ```ts
 * // config/app.ts
 * plugins: [tok()]
 * // config/auth.ts
 * guards: { web: { driver: 'session', provider: 'users' }, tok: { driver: 'tok', provider: 'users' } }
 * ```
 */
export function tok(): Plugin {
  return definePlugin({
    name: 'tok',
    config: { file: 'tok', schema: tokConfigSchema },
    register(app) {
      if (!app.config.get('tok.stateful')) app.config.set('tok.stateful', defaultStatefulDomains(app))
      const auth = app.service('auth')
      auth.guards.extend<{ provider?: string }>('tok', (app, { name, config }) => new TokGuard(app, name, () => providerFor(app, name, config.provider)))
      auth.guards.extend<TokenGuardConfig & { provider?: string }>(
        'token',
        (app, { name, config }) => new TokenGuard(name, () => providerFor(app, name, config.provider), config),
      )
      registerMigrations(app, MIGRATIONS)
      const publisher = app.service('publisher')
      publisher.publishes('tok-migrations', [{ from: MIGRATIONS, to: 'database/migrations' }])
      publisher.publishes('tok-config', [{ from: CONFIG_STUB, to: 'config/tok.ts' }])
    },
    async boot(app) {
      await startTokenCache(app)
      app.middleware.alias('abilities', checkAbilities, { validate: requireAbilities })
      app.middleware.alias('ability', checkForAnyAbility, { validate: requireAbilities })
      app.commands.register(pruneExpiredCommand)
      // SPAs call this first: the web group answers 204 and sets XSRF-TOKEN.
      app.router
        .get('/tok/csrf-cookie', () => null)
        .middleware(['web'])
        .name('tok.csrf-cookie')
    },
  })
}
