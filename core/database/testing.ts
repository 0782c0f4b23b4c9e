import { randomBytes } from 'node:crypto'
import type { Application } from '../application/application.ts'
import { loadKysely } from './kysely-module.ts'
import { Migrator } from './migrator.ts'

/** Options for {@link refreshDatabase}. */
export interface RefreshDatabaseOptions {
  /** The configured connection to test against; `database.default` when left out. */
  connection?: string
  /** Always an in-memory SQLite database, whatever the configured connection is. */
  memory?: boolean
}

/**
 * Gives the app a fresh, migrated database of the kind it is configured
 * with, under the connection name `testing`, and makes it the default:
 *
 * - SQLite: an in-memory database (nothing on disk; every call starts empty).
 * - PostgreSQL: a schema of its own (`kiln_test_<random>`) on the configured
 *   server, so parallel workers and test files never share tables; it is
 *   dropped when the app closes. Queries run on PostgreSQL for real, so what
 *   passes in tests passes in production.
 *
 * Call it once per test app (`test.beforeEach` with a fresh app, or once
 * for a file's app).
 *
 * @example
 * ```ts
 * const app = await createTestApp({ root })
 * await refreshDatabase(app) // DB_CONNECTION=pgsql: a schema of its own on DATABASE_URL
 * await refreshDatabase(app, { memory: true }) // always SQLite in memory
 * ```
 */
export async function refreshDatabase(app: Application, options: RefreshDatabaseOptions = {}): Promise<{ connection: string; schema?: string }> {
  const name = 'testing'
  const db = app.service('db')
  const base = options.connection ?? app.config.get<string | undefined>('database.default')
  const configured =
    base === undefined || base === name ? undefined : app.config.get<{ driver: string } & Record<string, unknown>>(`database.connections.${base}`)
  const previous = db.connections.resolved().get(name)
  if (previous) await (await previous).close()
  await db.connections.purge(name)
  let schema: string | undefined
  if (!options.memory && configured?.driver === 'pgsql') {
    schema = `kiln_test_${randomBytes(6).toString('hex')}`
    // `set` merges: the previous test schema's name is replaced, not kept beside it.
    app.config.set(`database.connections.${name}`, { ...configured, schema })
    const [kysely, { sql }] = await Promise.all([db.kysely(name), loadKysely()])
    await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(kysely)
    const created = schema
    app.terminating(async () => {
      await sql`DROP SCHEMA IF EXISTS ${sql.id(created)} CASCADE`.execute(await db.kysely(name)).catch(() => {})
    })
  } else {
    app.config.set(`database.connections.${name}`, { driver: 'sqlite', filename: ':memory:' })
  }
  app.config.set('database.default', name)
  await new Migrator(app, name).migrate()
  return { connection: name, schema }
}
