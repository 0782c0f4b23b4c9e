import { definePlugin } from '../application/define-plugin.ts'
import type { StateScope } from '../application/process-state.ts'
import { deepMerge } from '../support/dot-path.ts'
import { requireDriverPackages } from '../support/optional-package.ts'
import { databaseCommands } from './database-commands.ts'
import { databaseConfigSchema } from './database-config.ts'
import { DatabaseManager } from './database-manager.ts'
import { discoverModels } from './model/discover-models.ts'
import { loadKysely } from './kysely-module.ts'

declare module 'kiln-framework' {
  interface KilnServices {
    db: DatabaseManager
  }
}

/**
 * The kernel's database provider: `app.service('db')` (a `DatabaseManager`),
 * the `sqlite` (embedded default, `database/database.sqlite`) and `pgsql`
 * (`DATABASE_URL`) connections, the migration commands, and the models of
 * `app/models` registered by name.
 */
export const databaseProvider = definePlugin({
  name: 'kiln:database',
  config: { file: 'database', schema: databaseConfigSchema },
  prepare(app) {
    const defaults = {
      sqlite: { driver: 'sqlite', filename: 'database/database.sqlite' },
      pgsql: { driver: 'pgsql', url: app.env.unchecked.get('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/postgres') },
    }
    app.config.set('database.connections', deepMerge(defaults, app.config.get('database.connections', {})))
    if (!app.config.get('database.default')) app.config.set('database.default', app.env.unchecked.get('DB_CONNECTION', 'sqlite'))
    const active = app.config.get<string>('database.default')
    requireDriverPackages(`database.${app.config.get<string>(`database.connections.${active}.driver`, '')}`, `The database connection "${active}"`, app.root)
    const connection = app.config.get<{ driver?: string; filename?: string }>(`database.connections.${active}`, {})
    const scope: StateScope = connection.driver !== 'sqlite' ? 'network' : connection.filename === ':memory:' ? 'process' : 'machine'
    app.service('processState').declare({
      what: `the database (connection "${active}", ${scope === 'process' ? 'SQLite in memory' : connection.driver})`,
      scope,
      setting: 'give SQLite a file (DB_DATABASE), or use PostgreSQL (DB_CONNECTION=pgsql) for several machines',
    })
  },
  services: {
    db: { make: (app) => new DatabaseManager(app), token: DatabaseManager, close: (db) => db.close() },
  },
  register(app) {
    const db = app.service('db')
    app.service('health').register('database', () => databaseAnswers(db))
    for (const command of databaseCommands) app.commands.register(command)
  },
  async boot(app) {
    // Models stored by class and key (jobs, component state) load back in any process.
    await discoverModels(app.root)
  },
})

/**
 * The readiness check `database`: `select 1` on the default connection and
 * on every other connection the app has opened, so a second database the
 * app uses is checked once it is in use. A PostgreSQL that is down fails
 * within the connection's `connect_timeout_ms`.
 */
async function databaseAnswers(db: DatabaseManager): Promise<void> {
  const names = new Set([db.defaultConnection(), ...db.connections.resolved().keys()])
  const { sql } = await loadKysely()
  await Promise.all([...names].map(async (name) => sql`select 1`.execute((await db.connection(name)).kysely)))
}
