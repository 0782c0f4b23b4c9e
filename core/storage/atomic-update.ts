import type { Storage } from 'unstorage'

/**
 * A driver that can replace one item atomically: `change` gets the raw
 * stored value (null when there is none) and returns the raw value to store,
 * or undefined to store nothing. If the item changes in between (another
 * process wrote it), `change` runs again on the newer value.
 *
 * @example
 * ```ts
 * const driver: AtomicDriver = { ...redisDriver, updateItemRaw: async (key, change, { ttl }) => { ... } }
 * ```
 */
export interface AtomicDriver {
  updateItemRaw(key: string, change: (raw: string | null) => string | undefined, options: { ttl?: number }): Promise<void>
}

/**
 * Where a store made by `lazyStorage` offers its driver's atomic update.
 * The function resolves to false when the driver has none.
 */
export const ATOMIC_UPDATE = Symbol.for('kiln.storage.atomicUpdate')

type AtomicHook = (key: string, change: (raw: string | null) => string | undefined, options: { ttl?: number }) => Promise<boolean>

/**
 * Read-modify-write of one item. On a store whose driver supports it (the
 * `redis` store: compare-and-set in a Lua script) the write only lands if
 * nobody wrote the item since it was read, across every process; elsewhere
 * (memory, files: one process) it is a read then a write, and callers that
 * race in-process hold their own lock around it.
 *
 * @example
 * ```ts
 * await updateItem<{ hits: number }>(store, 'counter', (current) => ({ hits: (current?.hits ?? 0) + 1 }), { ttl: 60 })
 * ```
 */
export async function updateItem<T>(store: Storage, key: string, change: (current: T | null) => T | undefined, options: { ttl?: number } = {}): Promise<void> {
  const atomic = (store as unknown as { [ATOMIC_UPDATE]?: AtomicHook })[ATOMIC_UPDATE]
  if (atomic) {
    const done = await atomic(
      key,
      (raw) => {
        const next = change(raw === null ? null : (parse(raw) as T))
        return next === undefined ? undefined : JSON.stringify(next)
      },
      options,
    )
    if (done) return
  }
  const next = change(await store.getItem<T>(key))
  if (next !== undefined) await store.setItem(key, next, options)
}

/**
 * The store-side hook for {@link updateItem}: `lazyStorage` puts it on the
 * stores it makes, given a way to reach the loaded driver.
 *
 * @example
 * ```ts
 * const hook = atomicHook(async () => driver)
 * ```
 */
export function atomicHook(driver: () => Promise<unknown>): AtomicHook {
  return async (key, change, options) => {
    const loaded = (await driver()) as Partial<AtomicDriver>
    if (typeof loaded.updateItemRaw !== 'function') return false
    await loaded.updateItemRaw(key, change, options)
    return true
  }
}

function parse(raw: string): unknown {
  try {
    return JSON.parse(raw)
  } catch {
    // unstorage stores plain strings unquoted; anything that is not JSON is one of those.
    return raw
  }
}
