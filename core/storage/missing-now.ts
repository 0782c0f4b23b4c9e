import type { Storage } from 'unstorage'

/**
 * The key under which a storage offers a synchronous "this key is not
 * there" answer (Kiln's fs store, once its driver has loaded).
 */
export const MISSING_NOW = Symbol.for('kiln.storage.missingNow')

// Keys unstorage would pass to the driver unchanged (no separators, no query part to normalise away).
const PLAIN_KEY = /^[A-Za-z0-9_-]+$/

/**
 * True only when the store can tell at once, without a promise, that
 * nothing is stored under `key`; false when it cannot tell (or the key is
 * there), and the caller reads it as usual. A returning browser whose
 * session holds nothing is never stored, so this is the common session
 * read: answering it synchronously spares unstorage's asynchronous layer
 * and the promises it makes, each of which costs an AsyncLocalStorage hook
 * on Node 20.
 *
 * @example
 * ```ts
 * const record = missingNow(store, id) ? undefined : await store.getItem(id)
 * ```
 */
export function missingNow(store: Storage, key: string): boolean {
  if (!PLAIN_KEY.test(key)) return false
  const probe = (store as unknown as Record<symbol, ((key: string) => boolean) | undefined>)[MISSING_NOW]
  return probe !== undefined && probe(key)
}
