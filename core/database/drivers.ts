import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type { Application } from '../application/application.ts'
import { KilnError } from '../support/errors.ts'
import { importOptionalPackage } from '../support/optional-package.ts'
import type { Connection } from './connection.ts'
import { loadKysely } from './kysely-module.ts'
import { guardPool } from './pg-health.ts'
import { translateQueryError, withQueryErrors } from './query-errors.ts'
import { DatabaseBusyError, isBusy, reportBusy, UNWATCHED_ALL } from './sqlite-busy.ts'

/**
 * The `sqlite` driver (better-sqlite3): `filename` relative to the app root,
 * or `:memory:`. Foreign keys on, and WAL mode (write-ahead logging) for
 * files: readers never wait for a writer, and a writer never waits for
 * readers.
 *
 * better-sqlite3 is synchronous, so waiting for another writer's lock stops
 * the whole process: `busy_timeout_ms` (default 50) is the longest wait, and
 * a statement still locked after it fails with 503 (`DatabaseBusyError`)
 * and one warning in the log per busy spell.
 *
 * @example
 * ```ts
 * connections: { sqlite: { driver: 'sqlite', filename: 'database/database.sqlite', busy_timeout_ms: 50 } }
 * ```
 */
export async function sqliteConnection(app: Application, name: string, config: { filename?: string; busy_timeout_ms?: number }): Promise<Connection> {
  // An optional peer (a native build): the app's own dependency, added by kiln new when the app uses SQLite.
  const [Database, { Kysely, SqliteDialect }] = await Promise.all([
    importOptionalPackage<typeof import('better-sqlite3')>('better-sqlite3', `The database connection "${name}"`, app.root),
    loadKysely(),
  ])
  const filename = config.filename ?? 'database/database.sqlite'
  const path = filename === ':memory:' ? filename : resolve(app.root, filename)
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const busyTimeout = config.busy_timeout_ms ?? 50
  if (!Number.isInteger(busyTimeout) || busyTimeout < 0)
    throw new KilnError(
      `The "${name}" connection in config/database.ts: busy_timeout_ms must be a whole number of milliseconds, not ${JSON.stringify(busyTimeout)}.`,
    )
  const database = new Database(path, { timeout: busyTimeout })
  try {
    // Switching a file to WAL needs it to itself: another program's writer in rollback-journal mode makes it busy.
    if (path !== ':memory:') database.pragma('journal_mode = WAL')
    database.pragma('foreign_keys = ON')
  } catch (error) {
    database.close()
    if (!isBusy(error)) throw error
    // One warning while the file stays locked: every request tries to open it again.
    if (!busyAtOpen(app).has(name))
      app.logger.warn(
        { connection: name, err: (error as Error).message },
        'SQLite is locked by another writer and cannot be opened; requests get 503 until it is free',
      )
    busyAtOpen(app).add(name)
    throw new DatabaseBusyError(error)
  }
  busyAtOpen(app).delete(name)
  // Before the busy wrapper and the statement cache: readRowSync's statements are its own (raw mode is a statement's state).
  const prepareUnshared = database.prepare.bind(database)
  reportBusy(
    database,
    (error) => app.logger.warn({ connection: name, err: error.message }, 'SQLite is locked by another writer; writes get 503 until it is free'),
    () => app.logger.info({ connection: name }, 'SQLite takes writes again'),
  )
  cachePreparedStatements(database)
  const kysely = new Kysely<any>({ dialect: withQueryErrors(new SqliteDialect({ database })) })
  // A read while another context holds a transaction open would see its uncommitted rows: those go through Kysely's mutex.
  const readSync = (sql: string, parameters: readonly unknown[]) => {
    if (database.inTransaction) return undefined
    try {
      const statement = database.prepare(sql)
      const all = ((statement as unknown as Record<symbol, typeof statement.all>)[UNWATCHED_ALL] ?? statement.all) as typeof statement.all
      return all.call(statement, parameters) as Record<string, unknown>[]
    } catch (error) {
      if (isBusy(error)) throw new DatabaseBusyError(error)
      throw translateQueryError(error)
    }
  }
  // Keyed by the compiled query, which the migrator's forgetCompiledReads replaces: a `*` column list never outlives a migration.
  const rowStatements = new WeakMap<object, { statement: import('better-sqlite3').Statement; columns: readonly string[] }>()
  const readRowSync = (query: { sql: string }, parameters: readonly unknown[]) => {
    if (database.inTransaction) return undefined
    try {
      let entry = rowStatements.get(query)
      if (!entry) {
        // Raw: the row as an array, so better-sqlite3 builds no object keyed by column names the caller splits anyway.
        const statement = prepareUnshared(query.sql).raw(true)
        entry = { statement, columns: statement.columns().map((column) => column.name) }
        rowStatements.set(query, entry)
      }
      const row = entry.statement.get(parameters) as unknown[] | undefined
      return row ? { columns: entry.columns, row } : null
    } catch (error) {
      if (isBusy(error)) throw new DatabaseBusyError(error)
      throw translateQueryError(error)
    }
  }
  const writeNow = (sql: string, parameters: readonly unknown[]) => {
    // Inside another context's open transaction the write would join it (and be rolled back with it).
    if (database.inTransaction) return undefined
    // Synchronous from here to the restore, so no other statement runs without its usual busy timeout.
    database.pragma('busy_timeout = 0')
    try {
      return { changes: database.prepare(sql).run(parameters).changes }
    } catch (error) {
      if (error instanceof DatabaseBusyError) return undefined
      throw translateQueryError(error)
    } finally {
      database.pragma(`busy_timeout = ${busyTimeout}`)
    }
  }
  return { name, dialect: 'sqlite', kysely, readSync, readRowSync, writeNow, close: () => kysely.destroy() }
}

const lockedAtOpen = new WeakMap<Application, Set<string>>()

function busyAtOpen(app: Application): Set<string> {
  let names = lockedAtOpen.get(app)
  if (!names) lockedAtOpen.set(app, (names = new Set()))
  return names
}

/**
 * The `pgsql` driver (pg, imported only when used): `url` (or
 * `DATABASE_URL`), optional `schema` set as the search path, `pool` (most
 * connections, default 10), `connect_timeout_ms` (default 2000).
 *
 * While the server cannot be reached, requests that need it get 503 after
 * at most `connect_timeout_ms` (`DatabaseUnavailableError`), with one
 * warning in the log per outage, and are served again as soon as it is back.
 *
 * @example
 * ```ts
 * connections: { pgsql: { driver: 'pgsql', url: env.get('DATABASE_URL'), schema: 'shop' } }
 * ```
 */
export async function pgsqlConnection(
  app: Application,
  name: string,
  config: { url?: string; schema?: string; pool?: number; connect_timeout_ms?: number },
): Promise<Connection> {
  const url = config.url ?? app.env.unchecked.get('DATABASE_URL')
  if (!url) throw new KilnError(`The "${name}" connection in config/database.ts needs a \`url\` (or DATABASE_URL).`)
  const [pg, { Kysely, PostgresDialect }] = await Promise.all([
    importOptionalPackage<typeof import('pg')>('pg', `The database connection "${name}"`, app.root),
    loadKysely(),
  ])
  if (config.schema && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(config.schema)) throw new KilnError(`Invalid schema name "${config.schema}".`)
  const pool = new pg.Pool({
    connectionString: url,
    max: config.pool ?? 10,
    connectionTimeoutMillis: config.connect_timeout_ms ?? 2000,
    types: rememberedTimestamps(pg.types),
    ...(config.schema ? { options: `-c search_path=${config.schema}` } : {}),
  })
  const kysely = new Kysely<any>({ dialect: withQueryErrors(new PostgresDialect({ pool: guardPool(pool, app.logger, { connection: name }) })) })
  return { name, dialect: 'pgsql', kysely, close: () => kysely.destroy() }
}

/**
 * pg's type parsers, with the text of `timestamp` and `timestamptz` values
 * parsed once and remembered (at most 4,096 texts, then forgotten all at
 * once): postgres-date runs several regular expressions per value, and a
 * row of a token and its user has five timestamps, mostly the same texts
 * request after request. Each read still gets its own `Date`. A parser an
 * app sets with `pg.types.setTypeParser` after the connection opened is
 * used as it is.
 */
function rememberedTimestamps(types: typeof import('pg').types): import('pg').CustomTypesConfig {
  const remembered = new Map<number, (text: string) => unknown>()
  for (const oid of [1114, 1184]) {
    const parse = types.getTypeParser(oid, 'text') as (text: string) => unknown
    const times = new Map<string, number>()
    remembered.set(oid, (text) => {
      const time = times.get(text)
      if (time !== undefined) return new Date(time)
      const value = parse(text)
      if (value instanceof Date) {
        if (times.size >= 4096) times.clear()
        times.set(text, value.getTime())
      }
      return value
    })
  }
  const getTypeParser = ((oid: number, format?: 'text' | 'binary') => {
    const parser = types.getTypeParser(oid, format ?? 'text')
    const fast = format === 'binary' ? undefined : remembered.get(oid)
    // Only in place of pg's own parser: one an app set later is its business.
    return fast && parser === defaultParsers.get(oid) ? fast : parser
  }) as import('pg').CustomTypesConfig['getTypeParser']
  const defaultParsers = new Map([1114, 1184].map((oid) => [oid, types.getTypeParser(oid, 'text')]))
  return { getTypeParser }
}

/**
 * Reuses prepared statements by SQL text. Kysely prepares every query anew,
 * and preparing costs more than running a small indexed lookup; better-sqlite3
 * statements are safe to reuse (the driver is synchronous) and SQLite
 * re-prepares them itself after a schema change.
 */
function cachePreparedStatements(database: import('better-sqlite3').Database): void {
  const prepare = database.prepare.bind(database)
  const cache = new Map<string, ReturnType<typeof prepare>>()
  database.prepare = ((source: string) => {
    let statement = cache.get(source)
    if (!statement) {
      statement = prepare(source)
      if (cache.size < 1000) cache.set(source, statement)
    }
    return statement
  }) as typeof database.prepare
}
