import type { PoolClient } from 'pg'
import type { PgPool } from '../support/optional-peer-types.ts'
import type { PostgresPool, PostgresPoolClient } from 'kysely'
import { ServiceUnavailableError } from '../support/redis-health.ts'

/**
 * PostgreSQL cannot be reached (refused, timed out, or the connection was
 * cut): 503 `{"message":"The database is unavailable; try again shortly."}`,
 * never a 500 or a crash.
 *
 * @example
 * ```ts
 * if (error instanceof DatabaseUnavailableError) showMaintenancePage()
 * ```
 */
export class DatabaseUnavailableError extends ServiceUnavailableError {
  constructor(cause: unknown) {
    super('The database is unavailable; try again shortly.', { cause, retryAfter: 5 })
    this.name = 'DatabaseUnavailableError'
  }
}

/** The least a logger must do for {@link guardPool}. */
interface OutageLogger {
  warn(context: Record<string, unknown>, message: string): void
  info(context: Record<string, unknown>, message: string): void
}

// Socket errors, and SQLSTATE class 08 (connection exception) and 57P01-57P03 (the server shutting down or starting).
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'EAI_AGAIN', '57P01', '57P02', '57P03'])
const CONNECTION_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is closed/i

/**
 * True for errors that say the server cannot be reached, rather than that a
 * statement failed.
 *
 * @example
 * ```ts
 * isConnectionError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })) // true
 * ```
 */
export function isConnectionError(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08'))) return true
  return typeof message === 'string' && CONNECTION_MESSAGES.test(message)
}

const GUARDED = Symbol('kiln.guarded')

/**
 * The pool Kysely uses, made safe for outages: failing to connect, or a
 * connection cut mid-statement, becomes a `DatabaseUnavailableError` (503);
 * errors of idle connections are caught (pg would otherwise crash the
 * process); each outage is logged once, and its end once. Nothing waits for
 * the server to return: the next request simply connects again.
 *
 * @example
 * ```ts
 * new PostgresDialect({ pool: guardPool(new pg.Pool({ connectionString }), app.logger, { connection: 'pgsql' }) })
 * ```
 */
export function guardPool(pool: PgPool, logger: OutageLogger, context: Record<string, unknown>): PostgresPool {
  let down = false
  let closing = false
  const failed = (error: unknown) => {
    if (down || closing) return
    down = true
    logger.warn(
      { ...context, err: error instanceof Error ? error.message : String(error) },
      'PostgreSQL is unreachable; requests that need it get 503 until it is back',
    )
  }
  const unavailable = (error: unknown) => {
    if (!isConnectionError(error)) return error
    failed(error)
    return new DatabaseUnavailableError(error)
  }
  // An idle client whose connection dies is reported here; without a listener pg throws it as an uncaught error.
  pool.on('error', failed)
  return {
    async connect(): Promise<PostgresPoolClient> {
      let client: PoolClient
      try {
        client = (await pool.connect()) as unknown as PoolClient
      } catch (error) {
        throw unavailable(error)
      }
      if (down) {
        down = false
        logger.info(context, 'PostgreSQL is reachable again')
      }
      guardClient(client, unavailable)
      return client as unknown as PostgresPoolClient
    },
    end(): Promise<void> {
      closing = true
      return pool.end()
    },
  }
}

function guardClient(client: PoolClient, unavailable: (error: unknown) => unknown): void {
  const marked = client as PoolClient & { [GUARDED]?: true }
  if (marked[GUARDED]) return
  marked[GUARDED] = true
  const query = client.query.bind(client) as (...args: unknown[]) => unknown
  // Only the promise form is wrapped: cursors and callbacks return other things, passed through untouched.
  ;(client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const result = query(...args)
    return result instanceof Promise ? result.catch((error: unknown) => Promise.reject(unavailable(error))) : result
  }
}
