/**
 * The parts of optional peer packages (`ioredis`, `pg`, `better-sqlite3`,
 * `pusher`) that Kiln's public signatures name, declared here as structural
 * interfaces: the shipped declaration files then type-check in an app that
 * installed none of them (`skipLibCheck: false`), and the real clients still
 * fit where these are asked for. Kiln's code works with the packages' own
 * types inside; a method that hands a client back names the interface, and
 * an app that installed the package narrows it with a type argument.
 *
 * @example
 * ```ts
 * import type { RedisClient } from 'kiln-framework'
 * function ready(client: RedisClient): boolean {
 *   return client.status === 'ready'
 * }
 * ```
 */
export interface RedisClient {
  /** `wait`, `connecting`, `ready`, `reconnecting`, `end`... */
  readonly status: string
  connect(): Promise<void>
  on(event: string, listener: (...args: any[]) => void): unknown
  once(event: string, listener: (...args: any[]) => void): unknown
  quit(): Promise<unknown>
  disconnect(): void
}

/**
 * A `pg` pool, as far as Kiln uses it: connect, end, and its `error` event.
 *
 * @example
 * ```ts
 * import type { PgPool } from 'kiln-framework'
 * const close = (pool: PgPool) => pool.end()
 * ```
 */
export interface PgPool {
  connect(): Promise<PgPoolClient>
  end(): Promise<void>
  on(event: 'error', listener: (error: Error) => void): unknown
}

/**
 * A client checked out of a {@link PgPool}.
 *
 * @example
 * ```ts
 * import type { PgPoolClient } from 'kiln-framework'
 * const done = (client: PgPoolClient) => client.release()
 * ```
 */
export interface PgPoolClient {
  query(...args: any[]): any
  release(error?: Error | boolean): void
}

/**
 * A `better-sqlite3` database, as far as Kiln uses it: it prepares statements.
 *
 * @example
 * ```ts
 * import type { SqliteDatabase } from 'kiln-framework'
 * const count = (db: SqliteDatabase) => db.prepare('select count(*) as n from users').get()
 * ```
 */
export interface SqliteDatabase {
  prepare(source: string): SqliteStatement
}

/**
 * A prepared `better-sqlite3` statement.
 *
 * @example
 * ```ts
 * import type { SqliteStatement } from 'kiln-framework'
 * const rows = (statement: SqliteStatement) => statement.all()
 * ```
 */
export interface SqliteStatement {
  readonly readonly: boolean
  run(...params: unknown[]): unknown
  get(...params: unknown[]): unknown
  all(...params: unknown[]): unknown[]
}

/**
 * The `pusher` server SDK client, as far as Kiln uses it.
 *
 * @example
 * ```ts
 * import type { PusherClient } from 'kiln-framework'
 * const send = (pusher: PusherClient) => pusher.trigger('orders', 'shipped', { id: 1 })
 * ```
 */
export interface PusherClient {
  trigger(channel: string | string[], event: string, data: unknown, params?: { socket_id?: string }): Promise<unknown>
}
