import type { ControlledTransaction, Kysely } from 'kysely'
import type { Application } from '../application/application.ts'
import { DriverManager } from '../manager/driver-manager.ts'
import type { Connection } from './connection.ts'
import { pgsqlConnection, sqliteConnection } from './drivers.ts'
import { transactionStorage, type TransactionFrame } from './transaction-context.ts'

/**
 * The app's databases: named connections from `config/database.ts`
 * (`sqlite`, `pgsql` drivers), transactions that models join through
 * AsyncLocalStorage, and savepoints for nested transactions.
 *
 * @example
 * ```ts
 * const db = app.service('db')
 * await db.transaction(async () => {
 *   const order = await Order.create({ total: 10 })
 *   await order.lines().create({ sku: 'A' })
 * })
 * ```
 */
export class DatabaseManager {
  readonly connections: DriverManager<Promise<Connection>, Application>
  private savepoints = 0
  /** Settled connections, by their pending promise (purged ones drop out with it). */
  private readonly settled = new WeakMap<Promise<Connection>, Connection>()

  constructor(private readonly app: Application) {
    this.connections = new DriverManager<Promise<Connection>, Application>(app, app.config, { kind: 'database', file: 'database' })
    this.connections.extend<{ filename?: string; busy_timeout_ms?: number }>('sqlite', (app, { name, config }) => sqliteConnection(app, name, config))
    this.connections.extend<{ url?: string; schema?: string }>('pgsql', (app, { name, config }) => pgsqlConnection(app, name, config))
  }

  /** A connection (the default when omitted). @example `await db.connection('pgsql')` */
  connection(name?: string): Promise<Connection> {
    const connection = name ?? this.defaultConnection()
    const pending = this.connections.connection(connection)
    if (!this.settled.has(pending)) {
      void pending.then(
        (opened) => this.settled.set(pending, opened),
        // A connection that failed to open (a locked SQLite file) is not kept: the next use tries again.
        () => {
          if (this.connections.resolved().get(connection) === pending) void this.connections.purge(connection)
        },
      )
    }
    return pending
  }

  /** The default connection's name. @example `db.defaultConnection()` */
  defaultConnection(): string {
    return this.connections.defaultConnection()
  }

  /**
   * The connection if it is already open and no transaction of this context
   * runs on it, else undefined: for synchronous fast paths. @internal
   */
  openConnection(name?: string): Connection | undefined {
    const connection = name ?? this.defaultConnection()
    if (transactionStorage.getStore()?.connection === connection) return undefined
    const pending = this.connections.resolved().get(connection)
    return pending ? this.settled.get(pending) : undefined
  }

  /**
   * The Kysely to query with: the open transaction on that connection when
   * there is one, else the connection itself.
   *
   * @example
   * ```ts
   * const k = await db.kysely()
   * await k.selectFrom('posts').selectAll().execute()
   * ```
   */
  async kysely(name?: string): Promise<Kysely<any>> {
    const connection = name ?? this.defaultConnection()
    const frame = transactionStorage.getStore()
    if (frame && frame.connection === connection) return frame.trx
    return (await this.connection(connection)).kysely
  }

  /**
   * Runs `fn` in a transaction: a throw rolls back; nested calls use
   * savepoints; `afterCommit` callbacks run after the outermost commit.
   *
   * @example
   * ```ts
   * await db.transaction(async (trx) => {
   *   await trx.insertInto('audit').values({ event: 'x' }).execute()
   * })
   * ```
   */
  async transaction<T>(fn: (trx: Kysely<any>) => Promise<T>, name?: string): Promise<T> {
    const connection = name ?? this.defaultConnection()
    const parent = transactionStorage.getStore()
    if (parent && parent.connection === connection) {
      const savepoint = `kiln_sp_${++this.savepoints}`
      // Savepoint names are generated here, never user input; Kysely's types track them statically.
      const trx = (await (parent.trx as ControlledTransaction<any, any[]>).savepoint(savepoint as never).execute()) as ControlledTransaction<any, any>
      const frame: TransactionFrame = { connection, trx, depth: parent.depth + 1, afterCommit: parent.afterCommit }
      const queued = parent.afterCommit.length
      try {
        const result = await transactionStorage.run(frame, () => fn(trx))
        await trx.releaseSavepoint(savepoint as never).execute()
        return result
      } catch (error) {
        await trx.rollbackToSavepoint(savepoint as never).execute()
        // Work queued inside the rolled-back savepoint must not run at commit.
        parent.afterCommit.splice(queued)
        throw error
      }
    }
    const kysely = (await this.connection(connection)).kysely
    const trx = await kysely.startTransaction().execute()
    const frame: TransactionFrame = { connection, trx, depth: 0, afterCommit: [] }
    let result: T
    try {
      result = await transactionStorage.run(frame, () => fn(trx))
    } catch (error) {
      await trx.rollback().execute()
      throw error
    }
    await trx.commit().execute()
    // Outside the transaction's context: callbacks that query must not join a finished transaction.
    await transactionStorage.exit(async () => {
      for (const callback of frame.afterCommit) await callback()
    })
    return result
  }

  /** Closes every connection. @example `await db.close()` */
  async close(): Promise<void> {
    for (const [, pending] of this.connections.resolved()) await (await pending).close()
    await this.connections.purge()
  }
}
