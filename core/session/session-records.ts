import type { Storage } from 'unstorage'
import { updateItem } from '../storage/atomic-update.ts'
import { missingNow } from '../storage/missing-now.ts'

/** A session as stored: its data, when it expires, and whether it was ended. */
export interface StoredSession {
  data: Record<string, unknown>
  /** Unix milliseconds. */
  expires_at: number
  /** Set on the record of an id that was logged out or regenerated: it never loads again. */
  destroyed?: true
}

/**
 * Reads and writes session records in one store, with the rules that keep
 * parallel requests from losing each other's work:
 *
 * - every write of an id happens under a lock per id (a promise chain in
 *   this process), and re-reads the record first, so a writer applies its
 *   own changes to what is stored now, not to what it loaded;
 * - an id that was logged out or regenerated keeps a tombstone until it
 *   would have expired, so a request still in flight on the old cookie can
 *   neither load it nor write it back.
 *
 * Across processes the lock does not reach. On Redis each write is a
 * compare-and-set (see `updateItem`): a writer that raced another process
 * re-reads and merges again, so nothing is lost there either. The file and
 * memory stores rely on the lock alone: several processes sharing one
 * session folder can still race.
 *
 * @example
 * ```ts
 * const records = new SessionRecords(store, 7200)
 * await records.update(id, (current) => ({ data: { ...current?.data, cart: [1] }, expires_at: Date.now() + 7_200_000 }))
 * ```
 */
export class SessionRecords {
  constructor(
    private readonly store: Storage,
    readonly lifetimeSeconds: number,
  ) {}

  /**
   * The live record of an id, or undefined when it is missing, expired,
   * ended or malformed.
   *
   * @example
   * ```ts
   * const record = await records.read(id)
   * ```
   */
  async read(id: string): Promise<StoredSession | undefined> {
    const record = await this.find(id)
    return record && !record.destroyed && record.expires_at > Date.now() ? record : undefined
  }

  /**
   * The record of an id as stored, expired or ended ones included; undefined
   * when there is none (or it does not parse).
   *
   * @example
   * ```ts
   * if ((await records.find(id))?.destroyed) return 'ended'
   * ```
   */
  find(id: string): Promise<StoredSession | undefined> {
    // One promise, not an async wrapper around the store's: every web request reads its session.
    return this.store.getItem(id).then(asRecord)
  }

  /**
   * True when the store can tell at once that nothing is stored for `id`
   * (see `missingNow`); false when it cannot tell. @internal
   *
   * @example
   * ```ts
   * const record = records.knownMissing(id) ? undefined : await records.find(id)
   * ```
   */
  knownMissing(id: string): boolean {
    return missingNow(this.store, id)
  }

  /**
   * Replaces the record of `id` with what `change` makes of the stored one
   * (undefined when there is none), under this id's lock. `change` returning
   * undefined writes nothing. Never writes over a tombstone: resolves to
   * false when the id was ended, else true.
   *
   * @example
   * ```ts
   * await records.update(id, (current) => current && { ...current, expires_at: Date.now() + 60_000 })
   * ```
   */
  update(id: string, change: (current: StoredSession | undefined) => StoredSession | undefined): Promise<boolean> {
    return this.locked(id, async () => {
      let ended = false
      await updateItem<unknown>(
        this.store,
        id,
        (value) => {
          const stored = asRecord(value)
          ended = stored?.destroyed === true
          if (ended) return undefined
          return change(stored && stored.expires_at > Date.now() ? stored : undefined)
        },
        { ttl: this.ttlSeconds },
      )
      return !ended
    })
  }

  /**
   * Writes `keys` of `data` into the stored record of `id` (a key missing
   * from `data` is removed there), keeping the keys other requests wrote
   * meanwhile, and sets its expiry. Resolves like `update`.
   *
   * @example
   * ```ts
   * await records.merge(id, session.data, ['cart'], Date.now() + 7_200_000)
   * ```
   */
  merge(id: string, data: Record<string, unknown>, keys: string[], expiresAt: number): Promise<boolean> {
    return this.update(id, (current) => {
      // Gone without a tombstone (cleared by hand): what this request holds is all there is.
      if (!current) return { data, expires_at: expiresAt }
      const merged = { ...current.data }
      for (const key of keys) {
        if (Object.prototype.hasOwnProperty.call(data, key)) merged[key] = data[key]
        else delete merged[key]
      }
      return { data: merged, expires_at: expiresAt }
    })
  }

  /**
   * Ends an id for good: its record becomes a tombstone that lives as long
   * as the session could have, and at least until `until` (the latest
   * expiry a cookie of the id may carry), so no cookie of the id outlives it.
   *
   * @example
   * ```ts
   * await records.destroy(oldId)
   * ```
   */
  destroy(id: string, until = 0): Promise<void> {
    const expiresAt = Math.max(Date.now() + this.lifetimeSeconds * 1000, until)
    const ttl = Math.max(this.ttlSeconds, Math.ceil((expiresAt - Date.now()) / 1000))
    return this.locked(id, () => this.store.setItem(id, { data: {}, expires_at: expiresAt, destroyed: true }, { ttl }))
  }

  /**
   * Removes every record (tombstones included) past its expiry; returns how
   * many. For stores without their own expiry (files, memory). It lists and
   * reads every record: `kiln session:gc` runs it; the lottery removes a
   * bounded number per request instead (see `sweepExpiredSessions`).
   *
   * @example
   * ```ts
   * const removed = await records.sweep()
   * ```
   */
  async sweep(now = Date.now()): Promise<number> {
    let removed = 0
    for (const key of await this.store.getKeys()) if (await this.removeIfExpired(key, now)) removed++
    return removed
  }

  /**
   * Removes one record if it is past its expiry (or does not parse: only
   * sessions live in a session store); resolves to true when it did.
   *
   * @example
   * ```ts
   * if (await records.removeIfExpired(key)) removed++
   * ```
   */
  async removeIfExpired(key: string, now = Date.now()): Promise<boolean> {
    // One read, under the lock, so that a request extending the session right now goes first: the
    // lottery brings only keys that look expired, so a read before taking the lock would mostly repeat it.
    return this.locked(key, async () => {
      const value = await this.store.getItem(key).catch(() => undefined)
      // Already gone (another sweep, or removed by hand): nothing to count.
      if (value === null) return false
      const record = asRecord(value)
      if (record && record.expires_at > now) return false
      await this.store.removeItem(key)
      return true
    })
  }

  /** Stores keep whole seconds; rounding up never expires a session early. */
  private get ttlSeconds(): number {
    return Math.max(1, Math.ceil(this.lifetimeSeconds))
  }

  private locked<T>(id: string, fn: () => Promise<T>): Promise<T> {
    let chains = LOCKS.get(this.store)
    if (!chains) LOCKS.set(this.store, (chains = new Map()))
    const previous = chains.get(id) ?? Promise.resolve()
    const run = previous.then(fn, fn)
    const tail = run.then(
      () => undefined,
      () => undefined,
    )
    chains.set(id, tail)
    void tail.then(() => {
      if (chains.get(id) === tail) chains.delete(id)
    })
    return run
  }
}

// Per store, then per id: two apps on one store object share the locks, which is what they need.
const LOCKS = new WeakMap<Storage, Map<string, Promise<unknown>>>()

function asRecord(value: unknown): StoredSession | undefined {
  if (!value || typeof value !== 'object') return undefined
  const record = value as Partial<StoredSession>
  if (typeof record.expires_at !== 'number' || !record.data || typeof record.data !== 'object' || Array.isArray(record.data)) return undefined
  return record as StoredSession
}
