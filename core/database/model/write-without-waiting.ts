import type { Kysely, UpdateQueryBuilder, UpdateResult } from 'kysely'
import { currentApp } from '../../application/current-app.ts'
import type { Dialect } from '../connection.ts'
import { kysely } from '../kysely-module.ts'
import { transactionStorage } from '../transaction-context.ts'

// PostgreSQL's lock_not_available: the row lock was still held when lock_timeout ran out.
const LOCK_NOT_AVAILABLE = '55P03'

/**
 * Runs an update at once or not at all: the number of rows changed, or
 * undefined (nothing written) when the database is busy. SQLite locked by
 * another writer is not waited for (better-sqlite3 would hold the whole
 * process while it waits); a PostgreSQL row lock is waited for 100 ms at
 * most. Never inside the caller's transaction (SQLite, with one connection,
 * skips while one is open): bookkeeping must neither wait for nor be rolled
 * back with the work around it.
 *
 * @example
 * ```ts
 * await writeWithoutWaiting(Token, (db) => db.updateTable('tokens').set({ used: 1 }).where('id', '=', 3))
 * ```
 */
export function writeWithoutWaiting(
  // Only what it reads of a model class: importing `ModelClass` would close a circle through model-query.ts.
  model: { registerMorph(): void; readonly connection?: string },
  build: (db: Kysely<any>, dialect: Dialect) => UpdateQueryBuilder<any, any, any, UpdateResult>,
): Promise<number | undefined> {
  return transactionStorage.exit(async () => {
    model.registerMorph()
    const connection = await currentApp().service('db').connection(model.connection)
    if (connection.writeNow) {
      const query = build(connection.kysely, connection.dialect).compile()
      return connection.writeNow(query.sql, query.parameters)?.changes
    }
    try {
      return await connection.kysely.transaction().execute(async (trx) => {
        if (connection.dialect === 'pgsql') await kysely().sql`SET LOCAL lock_timeout = '100ms'`.execute(trx)
        return Number((await build(trx, connection.dialect).executeTakeFirst()).numUpdatedRows)
      })
    } catch (error) {
      if ((error as { code?: unknown }).code === LOCK_NOT_AVAILABLE) return undefined
      throw error
    }
  })
}
