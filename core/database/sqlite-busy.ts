import type { Database } from 'better-sqlite3'
import type { SqliteDatabase } from '../support/optional-peer-types.ts'
import { ServiceUnavailableError } from '../support/redis-health.ts'

/**
 * SQLite said the database is locked by another writer for longer than the
 * connection's `busy_timeout_ms`: 503 `{"message":"The database is busy; try
 * again shortly."}`, never a frozen server or a 500.
 *
 * @example
 * ```ts
 * if (error instanceof DatabaseBusyError) skipThisTime()
 * ```
 */
export class DatabaseBusyError extends ServiceUnavailableError {
  constructor(cause: unknown) {
    super('The database is busy; try again shortly.', { cause, retryAfter: 1 })
    this.name = 'DatabaseBusyError'
  }
}

const BUSY = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_TIMEOUT', 'SQLITE_LOCKED'])
const METHODS = ['run', 'get', 'all', 'iterate'] as const

/**
 * A statement's own `all`, before {@link reportBusy} wrapped it: for reads on
 * hot paths, which turn a busy error into `DatabaseBusyError` themselves.
 *
 * @example
 * ```ts
 * const all = (statement as any)[UNWATCHED_ALL] ?? statement.all
 * ```
 */
export const UNWATCHED_ALL = Symbol('better-sqlite3 all, unwrapped')

/**
 * True for better-sqlite3's "database is locked" errors.
 *
 * @example
 * ```ts
 * if (isBusy(error)) throw new DatabaseBusyError(error)
 * ```
 */
export function isBusy(error: unknown): boolean {
  return BUSY.has((error as { code?: string } | null)?.code ?? '')
}

/**
 * Makes every statement of a better-sqlite3 database turn "database is
 * locked" into a `DatabaseBusyError`, and reports one warning per busy spell
 * and its end (the next successful write; reads in WAL mode succeed
 * throughout a spell, so they say nothing about it). better-sqlite3 is synchronous, so
 * the connection's busy timeout is how long the whole process may wait for
 * another writer: it is kept short, and what is still locked after it is
 * refused rather than waited for.
 *
 * @example
 * ```ts
 * const database = new Database(path, { timeout: 50 })
 * reportBusy(database, (error) => logger.warn({ err: error.message }, 'SQLite is busy'), () => logger.info({}, 'SQLite is free'))
 * ```
 */
export function reportBusy(db: SqliteDatabase, warn: (error: Error) => void, free: () => void = () => {}): void {
  // The public signature names the structural type (better-sqlite3 is an optional peer); the code, the real one.
  const database = db as unknown as Database
  let busy = false
  const prepare = database.prepare.bind(database)
  database.prepare = ((source: string) => {
    const statement = prepare(source)
    const methods = statement as unknown as Record<(typeof METHODS)[number], (...args: unknown[]) => unknown>
    // Reads on hot paths (readSync) call the statement's own `all`: a busy read reports nothing about a spell.
    ;(statement as unknown as Record<symbol, unknown>)[UNWATCHED_ALL] = methods.all
    for (const method of METHODS) {
      const original = methods[method]
      // `arguments` passed on as is: a rest parameter and a bound function cost more than the read on hot paths.
      methods[method] = function (this: unknown) {
        try {
          // eslint-disable-next-line prefer-rest-params
          const result = Reflect.apply(original, statement, arguments)
          if (busy && !statement.readonly) {
            busy = false
            free()
          }
          return result
        } catch (error) {
          if (!isBusy(error)) throw error
          if (!busy) warn(error as Error)
          busy = true
          throw new DatabaseBusyError(error)
        }
      }
    }
    return statement
  }) as typeof database.prepare
}
