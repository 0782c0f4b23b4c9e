import type { Compilable, CompiledQuery, Kysely } from 'kysely'
import { currentApp } from '../application/current-app.ts'
import type { Dialect } from './connection.ts'
import { kysely } from './kysely-module.ts'
import { transactionStorage } from './transaction-context.ts'

const PARAMETERS = Array.from({ length: 8 }, (_, i) => Symbol(`parameter ${i}`))
const compiled = new WeakMap<Kysely<any>, Map<string, CompiledQuery>>()
const columns = new WeakMap<Kysely<any>, Map<string, Promise<string[]>>>()

/**
 * A placeholder for the `index`th parameter of a {@link compiledRead} query:
 * the query is built and compiled once with placeholders, and each run binds
 * the real values.
 *
 * @example
 * ```ts
 * db.selectFrom('users').selectAll().where('id', '=', parameter(0) as never)
 * ```
 */
export function parameter(index: number): symbol {
  const placeholder = PARAMETERS[index]
  if (!placeholder) throw new RangeError(`compiledRead takes at most ${PARAMETERS.length} parameters.`)
  return placeholder
}

/** What {@link compiledRead} builds a query with. */
export interface ReadBuilder {
  db: Kysely<any>
  dialect: Dialect
  /** The columns of a table of this connection, in their order (read once per connection and table). */
  columns(table: string): Promise<string[]>
}

/**
 * Runs a read whose SQL is built and compiled once per connection and
 * `key`: for the hottest queries of an app (a model by key, a token with its
 * user), building and compiling through Kysely cost more than running them.
 * On SQLite outside a transaction the read is one synchronous statement,
 * prepared once; elsewhere it goes through Kysely's executor, inside the
 * transaction in scope when there is one.
 *
 * @example
 * ```ts
 * const rows = await compiledRead('users by email', ({ db }) =>
 *   db.selectFrom('users').selectAll().where('email', '=', parameter(0) as never).limit(sql.lit(1)), [email])
 * ```
 */
export async function compiledRead(
  key: string,
  build: (builder: ReadBuilder) => Compilable | Promise<Compilable>,
  values: readonly unknown[],
  options: { connection?: string } = {},
): Promise<Record<string, unknown>[]> {
  const now = compiledReadNow(key, values, options)
  if (now) return now
  const manager = currentApp().service('db')
  const db = await manager.kysely(options.connection)
  const { dialect, kysely } = await manager.connection(options.connection)
  const query = compiled.get(kysely)?.get(key) ?? (await compile(kysely, dialect, key, build))
  const { rows } = await db.executeQuery<Record<string, unknown>>({ ...query, parameters: bind(query, values) })
  return rows
}

/**
 * The rows of a {@link compiledRead} right away, without a promise, when
 * the read can run synchronously: on SQLite, outside a transaction, once an
 * earlier `compiledRead` of the same `key` compiled it. Undefined otherwise
 * (then `compiledRead` it). For the hottest paths, where each `await` costs
 * as much as the read.
 *
 * @example
 * ```ts
 * const rows = compiledReadNow('users by email', [email]) ?? (await compiledRead('users by email', build, [email]))
 * ```
 */
export function compiledReadNow(key: string, values: readonly unknown[], options: { connection?: string } = {}): Record<string, unknown>[] | undefined {
  const open = currentApp().service('db').openConnection(options.connection)
  if (!open?.readSync) return undefined
  const query = compiled.get(open.kysely)?.get(key)
  return query && open.readSync(query.sql, bind(query, values))
}

/**
 * The first row of a {@link compiledRead} as an array, with its column
 * names (one array per statement, so a caller can key what it works out
 * from them), `null` for no row, or undefined when it cannot run
 * synchronously (as {@link compiledReadNow}). Saves building a row object
 * keyed by column names when the caller takes the row apart anyway.
 *
 * @example
 * ```ts
 * const first = compiledRowNow('users by email', [email]) // { columns: ['id', ...], row: [1, ...] }
 * ```
 */
export function compiledRowNow(
  key: string,
  values: readonly unknown[],
  options: { connection?: string } = {},
): { columns: readonly string[]; row: unknown[] } | null | undefined {
  const open = currentApp().service('db').openConnection(options.connection)
  if (!open?.readRowSync) return undefined
  const query = compiled.get(open.kysely)?.get(key)
  return query && open.readRowSync(query, bind(query, values))
}

/**
 * Forgets the compiled reads and column lists of a connection, so that the
 * next reads see a changed schema (the migrator calls it after every run).
 *
 * @example
 * ```ts
 * forgetCompiledReads(connection.kysely)
 * ```
 */
export function forgetCompiledReads(db: Kysely<any>): void {
  compiled.delete(db)
  columns.delete(db)
}

/** True when the read runs outside any transaction of its connection (where PostgreSQL errors leave nothing aborted). */
export function outsideTransaction(): boolean {
  return !transactionStorage.getStore()
}

async function compile(
  db: Kysely<any>,
  dialect: Dialect,
  key: string,
  build: (builder: ReadBuilder) => Compilable | Promise<Compilable>,
): Promise<CompiledQuery> {
  const query = (await build({ db, dialect, columns: (table) => tableColumns(db, dialect, table) })).compile()
  let perDb = compiled.get(db)
  if (!perDb) compiled.set(db, (perDb = new Map()))
  perDb.set(key, query)
  return query
}

function bind(query: CompiledQuery, values: readonly unknown[]): unknown[] {
  return query.parameters.map((value) => {
    const index = typeof value === 'symbol' ? PARAMETERS.indexOf(value) : -1
    return index >= 0 ? values[index] : value
  })
}

function tableColumns(db: Kysely<any>, dialect: Dialect, table: string): Promise<string[]> {
  let perDb = columns.get(db)
  if (!perDb) columns.set(db, (perDb = new Map()))
  let list = perDb.get(table)
  if (!list) {
    // The current schema only, read from the catalog: other schemas' tables are not this connection's.
    const { sql } = kysely()
    const query =
      dialect === 'sqlite'
        ? sql<{ name: string }>`select name from pragma_table_info(${table}) order by cid`
        : sql<{
            name: string
          }>`select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ${table} order by ordinal_position`
    list = query.execute(db).then(({ rows }) => rows.map((row) => row.name))
    perDb.set(table, list)
    list.catch(() => perDb.delete(table))
  }
  return list
}
