import { z } from 'zod'
import { configDefiner } from '../config/define-config.ts'

/**
 * The schema of `config/database.ts`: named connections; `default` (or
 * `DB_CONNECTION`) picks one, so moving from SQLite to PostgreSQL is a config
 * or env change.
 *
 * @example
 * ```ts
 * export default defineConfig(({ env }) => ({
 *   default: env.get('DB_CONNECTION', 'sqlite'),
 *   connections: {
 *     sqlite: { driver: 'sqlite', filename: 'database/database.sqlite' },
 *     pgsql: { driver: 'pgsql', url: env.get('DATABASE_URL') },
 *   },
 * }))
 * ```
 */
export const databaseConfigSchema = z.strictObject({
  default: z.string().optional(),
  connections: z.record(z.string(), z.looseObject({ driver: z.string() })).default({}),
  /** Extra migration folders (relative to the app root) beside `database/migrations`. */
  migrations: z.array(z.string()).default([]),
})

/**
 * Declares `config/database.ts` with its keys checked: `tsc` rejects a key this file does not have, as boot does.
 *
 * @example
 * ```ts
 * // config/database.ts
 * export default defineDatabaseConfig({})
 * ```
 */
export const defineDatabaseConfig = configDefiner(databaseConfigSchema)
