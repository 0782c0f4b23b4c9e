import type { Application } from '../../../../core/index.ts'
import type { Storage } from 'unstorage'

/** Where persisted values live in the cache store: one key per component instance and property. */
export const PERSISTED_PREFIX = 'comp:persisted'

const lastSweep = new WeakMap<Application, number>()

/**
 * Removes persisted computed values whose lifetime has passed, at most
 * once a minute per app, after the response (a deferred task). Every page
 * load makes new component instances, so on a store whose driver does not
 * expire entries itself (memory, files) their values would pile up; Redis
 * drops them itself, and listing its keys would be costly, so it is left alone.
 *
 * @example
 * ```ts
 * sweepPersisted(app, store)
 * ```
 */
export function sweepPersisted(app: Application, store: Storage): void {
  if (app.config.get<string | undefined>('storage.stores.cache.driver') === 'redis') return
  const now = Date.now()
  if (now - (lastSweep.get(app) ?? 0) < 60_000) return
  lastSweep.set(app, now)
  void app.service('http').deferred.run([() => sweep(store, now)])
}

async function sweep(store: Storage, now: number): Promise<void> {
  for (const key of await store.getKeys(PERSISTED_PREFIX)) {
    const entry = await store.getItem<{ expires?: unknown }>(key)
    if (!entry || typeof entry !== 'object' || typeof entry.expires !== 'number' || entry.expires <= now) await store.removeItem(key)
  }
}
