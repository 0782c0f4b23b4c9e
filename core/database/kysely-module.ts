import type * as KyselyModule from 'kysely'
import { KilnError } from '../support/errors.ts'

// Kysely is some 260 modules: importing it is the largest single cost of starting a process (about a third of
// `kiln serve`'s modules), and most requests never touch the database. So no module of Kiln imports it statically:
// the first connection loads it (connections open asynchronously anyway), and code that builds queries runs only
// with a connection in hand, so it finds the module already loaded.
let loaded: typeof KyselyModule | undefined

/**
 * Loads Kysely once; every database connection awaits it before it opens.
 *
 * @example
 * ```ts
 * const { Kysely, SqliteDialect } = await loadKysely()
 * ```
 */
export async function loadKysely(): Promise<typeof KyselyModule> {
  return (loaded ??= await import('kysely'))
}

/**
 * Kysely, for code that runs with a connection (or a query of one) in hand,
 * which means the module is loaded. @internal
 *
 * @example
 * ```ts
 * query.limit(kysely().sql.lit(1))
 * ```
 */
export function kysely(): typeof KyselyModule {
  if (!loaded) throw new KilnError('Kysely is used before any database connection opened: open one with `await app.service("db").connection()` first.')
  return loaded
}

/**
 * Whether a Kysely instance runs on SQLite. Also for an instance the app
 * made itself before Kiln opened any connection (then Kiln has not loaded
 * Kysely and cannot use `instanceof`: the adapter's class chain is read by
 * name instead). @internal
 *
 * @example
 * ```ts
 * onSqlite(db) // true for better-sqlite3
 * ```
 */
export function onSqlite(db: KyselyModule.Kysely<any>): boolean {
  const adapter = db.getExecutor().adapter
  if (loaded) return adapter instanceof loaded.SqliteAdapter
  for (let proto = Object.getPrototypeOf(adapter) as object | null; proto; proto = Object.getPrototypeOf(proto) as object | null)
    if (proto.constructor.name === 'SqliteAdapter') return true
  return false
}
