import type { DatabaseConnection, Dialect, Driver, QueryResult } from 'kysely'
import { KilnError } from '../support/errors.ts'

/**
 * A query named a table that does not exist: almost always migrations that
 * have not run yet. The message says what to do (`The table "users" does not
 * exist. Run \`kiln migrate\` to create it.`); the driver's own error is the
 * `cause`. It is a 500 like any other failure: with `APP_DEBUG` the page
 * shows this message, in production the log line does.
 *
 * @example
 * ```ts
 * try {
 *   await db.selectFrom('users').selectAll().execute()
 * } catch (error) {
 *   if (error instanceof MissingTableError) console.error(`Missing: ${error.table}`)
 *   throw error
 * }
 * ```
 */
export class MissingTableError extends KilnError {
  constructor(
    readonly table: string,
    cause: unknown,
  ) {
    super(`The table "${table}" does not exist.`, { hint: 'Run `kiln migrate` to create it.', cause, code: 'E_MISSING_TABLE' })
    this.name = 'MissingTableError'
  }
}

/**
 * A write left a NOT NULL column empty: the message names the column
 * (`users.email may not be null.`), so the missing field is found without
 * reading the driver's text. The driver's error is the `cause`. Validate
 * input before writing it: this is a 500 like any other failed query.
 *
 * @example
 * ```ts
 * try {
 *   await User.create({ name: 'Ada' })
 * } catch (error) {
 *   if (error instanceof NotNullViolationError) console.error(`${error.table}.${error.column} is required`)
 * }
 * ```
 */
export class NotNullViolationError extends KilnError {
  constructor(
    readonly table: string,
    readonly column: string,
    cause: unknown,
  ) {
    super(`${table}.${column} may not be null.`, { hint: 'Give it a value (or a default in its migration).', cause, code: 'E_NOT_NULL' })
    this.name = 'NotNullViolationError'
  }
}

// SQLite: "NOT NULL constraint failed: users.email". PostgreSQL: SQLSTATE 23502, with the table and column as fields.
const SQLITE_NOT_NULL = /^NOT NULL constraint failed: (?:\w+\.)?([^.\s]+)\.([^.\s]+)$/

// SQLite: "no such table: users" (or "main.users"). PostgreSQL: SQLSTATE 42P01 undefined_table, 'relation "users" does not exist'.
const SQLITE_MISSING = /^no such table: (?:\w+\.)?(.+)$/
const PG_MISSING = /^relation "(?:[^"]+\.)?([^"]+)" does not exist$/

/**
 * The clearer error a driver's error stands for, or the error itself: a
 * missing table (SQLite or PostgreSQL) becomes a {@link MissingTableError},
 * an empty NOT NULL column a {@link NotNullViolationError}; anything else is
 * returned unchanged.
 *
 * @example
 * ```ts
 * throw translateQueryError(error)
 * ```
 */
export function translateQueryError(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof KilnError) return error
  const code = (error as { code?: unknown }).code
  const notNull = notNullColumn(error, code)
  if (notNull) return new NotNullViolationError(notNull[0], notNull[1], error)
  const table = code === '42P01' ? (PG_MISSING.exec(error.message)?.[1] ?? 'unknown') : SQLITE_MISSING.exec(error.message)?.[1]
  return table === undefined ? error : new MissingTableError(table, error)
}

function notNullColumn(error: Error, code: unknown): [string, string] | undefined {
  if (code === '23502') {
    const { table, column } = error as { table?: string; column?: string }
    return column ? [table ?? 'unknown', column] : undefined
  }
  const match = SQLITE_NOT_NULL.exec(error.message)
  return match ? [match[1]!, match[2]!] : undefined
}

/**
 * Wraps a Kysely dialect so that every query's error passes through
 * {@link translateQueryError}: queries, transactions and streams, on any
 * driver, with the driver's own connections handed back to it untouched.
 *
 * @example
 * ```ts
 * const kysely = new Kysely<any>({ dialect: withQueryErrors(new SqliteDialect({ database })) })
 * ```
 */
export function withQueryErrors(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => translatingDriver(dialect.createDriver()),
  }
}

function translatingDriver(driver: Driver): Driver {
  const originals = new WeakMap<DatabaseConnection, DatabaseConnection>()
  const wrap = (connection: DatabaseConnection): DatabaseConnection => {
    const wrapped: DatabaseConnection = {
      async executeQuery<R>(query: Parameters<DatabaseConnection['executeQuery']>[0]): Promise<QueryResult<R>> {
        try {
          return await connection.executeQuery<R>(query)
        } catch (error) {
          throw translateQueryError(error)
        }
      },
      async *streamQuery<R>(query: Parameters<DatabaseConnection['streamQuery']>[0], chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
        try {
          yield* connection.streamQuery<R>(query, chunkSize)
        } catch (error) {
          throw translateQueryError(error)
        }
      },
    }
    originals.set(wrapped, connection)
    return wrapped
  }
  // Every other method (transactions, savepoints, release) gets the driver's own connection back.
  return new Proxy(driver, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown
      if (typeof value !== 'function') return value
      if (property === 'acquireConnection') return async () => wrap(await (value as Driver['acquireConnection']).call(target))
      return (...args: unknown[]) =>
        (value as (...a: unknown[]) => unknown).apply(
          target,
          args.map((arg) => originals.get(arg as DatabaseConnection) ?? arg),
        )
    },
  })
}
