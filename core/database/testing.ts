import type { Application } from '../application/application.ts'
import { Migrator } from './migrator.ts'

/**
 * Points the app's default connection at a fresh in-memory SQLite database
 * and runs every migration: call it in `test.beforeEach` (with a fresh app)
 * or once per app.
 *
 * @example
 * ```ts
 * const app = await createTestApp({ root })
 * await refreshDatabase(app)
 * ```
 */
export async function refreshDatabase(app: Application, options: { connection?: string } = {}): Promise<void> {
  const name = options.connection ?? 'testing'
  const db = app.service('db')
  const previous = db.connections.resolved().get(name)
  if (previous) await (await previous).close()
  await db.connections.purge(name)
  app.config.set(`database.connections.${name}`, { driver: 'sqlite', filename: ':memory:' })
  app.config.set('database.default', name)
  await new Migrator(app, name).migrate()
}
