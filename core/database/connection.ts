import type { Kysely } from 'kysely'

/** Which SQL dialect a connection speaks. */
export type Dialect = 'sqlite' | 'pgsql'

/**
 * One database connection: a Kysely instance and what it speaks.
 *
 * @example
 * ```ts
 * const { kysely } = app.service('db').connection()
 * await kysely.selectFrom('users').selectAll().execute()
 * ```
 */
export interface Connection {
  name: string
  dialect: Dialect
  kysely: Kysely<any>
  /**
   * Runs a read synchronously, skipping Kysely's executor, or answers
   * undefined when it cannot (a transaction is open on the connection).
   * Only drivers with a synchronous client have it (sqlite).
   */
  readSync?(sql: string, parameters: readonly unknown[]): Record<string, unknown>[] | undefined
  /**
   * The first row of a compiled read as an array, with its column names
   * (the same array for every run of one `query` object), `null` for no row,
   * or undefined when it cannot run now (as {@link Connection.readSync}).
   */
  readRowSync?(query: { sql: string }, parameters: readonly unknown[]): { columns: readonly string[]; row: unknown[] } | null | undefined
  /**
   * Runs a write at once without waiting for another writer's lock, or
   * answers undefined when it cannot (the database is locked, or a
   * transaction is open on the connection). Only drivers whose client blocks
   * the process while it waits have it (sqlite).
   */
  writeNow?(sql: string, parameters: readonly unknown[]): { changes: number } | undefined
  close(): Promise<void>
}
