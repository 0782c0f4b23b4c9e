import { isPromiseLike, KilnError } from '../../../../core/index.ts'
import type { Storage } from 'unstorage'
import type { ComponentContext, ComponentHook } from '../../lifecycle/component-hook.ts'
import { dehydrate, hydrate, type TypedPath } from '../../state/state.ts'
import { computedState, primeComputed } from './computed.ts'
import { storedComputed, storeKey, type StoredComputed } from './stored-computed.ts'
import { sweepPersisted } from './sweep-persisted.ts'

/** The store of config/storage.ts that is the app's cache (the scheduler's locks use it too). */
const CACHE_STORE = 'cache'

/** What the cache store holds for one computed value: the value as state is kept (dates, models), and when it ends. */
interface Entry {
  data: unknown
  types: TypedPath[]
  expires: number
}

/**
 * Persisted and cached computed properties (`@computed({ persist: true })`,
 * `@computed({ cache: true })`): before the component's own code runs, each
 * value still valid in the app's cache store is loaded, so its getter does
 * not run; at the end of the trip, a value worked out again is written
 * back for its lifetime, and one forgotten (`this.forgetComputed()`) and
 * not worked out again is removed. Values are kept as state is, so dates
 * and models come back as such; the expiry is kept with the value, so a
 * store whose driver ignores lifetimes (memory, files) still honours it.
 *
 * @example
 * ```ts
 * const features = [computedValues, ...]
 * ```
 */
export const computedValues: ComponentHook = {
  name: 'computed',
  mount(c) {
    // A persisted value belongs to an instance, and a mounting one is new: only cached ones can be there already.
    return load(c, 'cache')
  },
  hydrate(c) {
    return load(c)
  },
  dehydrate(c) {
    const stored = storedComputed(c.Class)
    if (stored.size === 0) return
    return save(c, stored)
  },
}

function load(c: ComponentContext, only?: StoredComputed['mode']): Promise<void> | undefined {
  const stored = [...storedComputed(c.Class)].filter(([, { mode }]) => only === undefined || mode === only)
  if (stored.length === 0) return undefined
  const store = cacheStore(c)
  return Promise.all(
    stored.map(async ([name, options]) => {
      const entry = await store.getItem<Entry>(storeKey(options, c.name, c.run.id, name))
      if (!valid(entry)) return
      const values = hydrate({ value: entry.data }, entry.types, { app: c.services.app, ctx: c.run.ctx })
      primeComputed(c.component, name, (isPromiseLike(values) ? await values : values).value)
    }),
  ).then(() => undefined)
}

async function save(c: ComponentContext, stored: ReadonlyMap<string, StoredComputed>): Promise<void> {
  const store = cacheStore(c)
  for (const [name, options] of stored) {
    const found = computedState(c.component, name)
    const key = storeKey(options, c.name, c.run.id, name)
    if (found.state !== 'fresh') {
      if (found.state === 'forgotten') await store.removeItem(key)
      continue
    }
    if (isPromiseLike(found.value))
      throw new KilnError(`${c.Class.name}.${name} is kept with persist or cache, so it must return its value, not a promise.`, {
        code: 'E_COMP_COMPUTED_OPTIONS',
      })
    const { data, types } = dehydrate({ value: found.value }, c.name)
    const entry: Entry = { data: data.value, types, expires: Date.now() + options.seconds * 1000 }
    // The lifetime goes to the driver too, so Redis drops the entry itself; the others keep it until it is read.
    await store.setItem(key, entry as unknown as Record<string, unknown>, { ttl: Math.ceil(options.seconds) })
    if (options.mode === 'persist') sweepPersisted(c.services.app, store)
  }
}

function valid(entry: Entry | null): entry is Entry {
  return entry !== null && typeof entry === 'object' && typeof entry.expires === 'number' && entry.expires > Date.now() && Array.isArray(entry.types)
}

function cacheStore(c: ComponentContext): Storage {
  const storage = c.services.app.service('storage')
  if (!storage.stores.connectionNames().includes(CACHE_STORE))
    throw new KilnError(
      `${c.Class.name} has a computed property with persist or cache, which is kept in the "${CACHE_STORE}" store of config/storage.ts, and that file has none: add \`cache: { driver: 'memory' }\` (or redis, shared by every server) to its stores.`,
      { code: 'E_COMP_COMPUTED_STORE' },
    )
  return storage.store(CACHE_STORE)
}
