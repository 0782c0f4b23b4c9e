import { z } from 'zod'

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
export const databaseConfigSchema = z.object({
  default: z.string().optional(),
  connections: z.record(z.string(), z.looseObject({ driver: z.string() })).default({}),
  /** Extra migration folders (relative to the app root) beside `database/migrations`. */
  migrations: z.array(z.string()).default([]),
})
