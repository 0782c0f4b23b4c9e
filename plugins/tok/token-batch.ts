import { runWithApp, type Application } from '../../core/index.ts'

/** Most ids one batched statement carries; a busier moment starts another batch. */
const MAX_IDS = 100

interface Waiter {
  resolve(row: Record<string, unknown> | undefined): void
  reject(error: unknown): void
}

interface Batch {
  waiters: Map<number, Waiter[]>
  read: (ids: number[]) => Promise<Record<string, unknown>[]>
  idOf: (row: Record<string, unknown>) => unknown
}

const open = new WeakMap<Application, Map<string, Batch>>()

/**
 * Reads one row by id, sharing the statement with every other read of the
 * same `key` started before the event loop next turns: on a database across
 * a network hop, each statement costs a round of socket writes and reads,
 * several times the cost of the read itself, and under load many requests
 * want a token at once. `read` gets the distinct ids of the batch (at most
 * 100) and returns their rows; `idOf` says which id a row answers. A failed
 * statement fails every read of its batch.
 *
 * @example
 * ```ts
 * const row = await batchedRead(app, 'tokens', 12, (ids) => readTokens(ids), (row) => row.id)
 * ```
 */
export function batchedRead(
  app: Application,
  key: string,
  id: number,
  read: (ids: number[]) => Promise<Record<string, unknown>[]>,
  idOf: (row: Record<string, unknown>) => unknown,
): Promise<Record<string, unknown> | undefined> {
  let batches = open.get(app)
  if (!batches) open.set(app, (batches = new Map()))
  let batch = batches.get(key)
  if (!batch || batch.waiters.size >= MAX_IDS) {
    const started: Batch = (batch = { waiters: new Map(), read, idOf })
    batches.set(key, started)
    // setImmediate runs after the I/O callbacks of this turn: every request read in it joins this batch.
    setImmediate(() => {
      if (batches.get(key) === started) batches.delete(key)
      void flush(app, started)
    })
  }
  const waiters = batch.waiters
  return new Promise((resolve, reject) => {
    const list = waiters.get(id)
    if (list) list.push({ resolve, reject })
    else waiters.set(id, [{ resolve, reject }])
  })
}

async function flush(app: Application, batch: Batch): Promise<void> {
  let rows: Record<string, unknown>[]
  try {
    rows = await runWithApp(app, () => batch.read([...batch.waiters.keys()]))
  } catch (error) {
    for (const list of batch.waiters.values()) for (const waiter of list) waiter.reject(error)
    return
  }
  const byId = new Map<string, Record<string, unknown>>()
  // PostgreSQL hands bigint keys back as strings.
  for (const row of rows) byId.set(String(batch.idOf(row)), row)
  for (const [id, list] of batch.waiters) {
    const row = byId.get(String(id))
    for (const waiter of list) waiter.resolve(row)
  }
}
