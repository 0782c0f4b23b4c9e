import { AsyncLocalStorage } from 'node:async_hooks'
import type { ControlledTransaction } from 'kysely'

/** One open transaction (or savepoint) on a connection. */
export interface TransactionFrame {
  connection: string
  trx: ControlledTransaction<any, any>
  depth: number
  /** Callbacks waiting for the outermost commit; shared by all frames of one transaction. */
  afterCommit: Array<() => unknown>
}

/** @internal the transaction in scope, per async context. */
export const transactionStorage = new AsyncLocalStorage<TransactionFrame>()

/**
 * True inside `db.transaction(...)`.
 *
 * @example
 * ```ts
 * if (inTransaction()) ...
 * ```
 */
export function inTransaction(): boolean {
  return transactionStorage.getStore() !== undefined
}

/**
 * Runs `fn` after the surrounding transaction commits (never after a
 * rollback), or right away when there is no transaction. Events and jobs
 * marked after-commit use this.
 *
 * @example
 * ```ts
 * afterCommit(() => OrderShipped.dispatch(order))
 * ```
 */
export function afterCommit(fn: () => unknown): void {
  const frame = transactionStorage.getStore()
  if (frame) frame.afterCommit.push(fn)
  else void Promise.resolve().then(fn)
}
