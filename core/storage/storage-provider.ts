import { definePlugin } from '../application/define-plugin.ts'
import { storeScope } from '../application/process-state.ts'
import { storageConfigSchema } from './storage-config.ts'
import { StorageManager } from './storage-manager.ts'
import { redisUrl } from '../support/redis-health.ts'

declare module 'kiln-framework' {
  interface KilnServices {
    storage: StorageManager
  }
}

/** The kernel's storage provider: `app.service('storage')`; stores are disposed when the app closes. */
export const storageProvider = definePlugin({
  name: 'kiln:storage',
  config: { file: 'storage', schema: storageConfigSchema },
  services: {
    storage: { make: (app) => new StorageManager(app), token: StorageManager, close: (storage) => storage.stores.purge() },
  },
  register(app) {
    // The store named `cache` is the app's cache: on memory, each process would cache (and forget) on its own.
    const cacheDriver = app.config.get<string | undefined>('storage.stores.cache.driver')
    if (cacheDriver !== undefined)
      app.service('processState').declare({
        what: `the cache store (config/storage.ts \`stores.cache\`, ${cacheDriver})`,
        scope: storeScope(cacheDriver),
        setting: 'set its driver to redis or fs (CACHE_STORE=redis in the starter)',
      })
    // Every Redis store is one readiness check (`storage.cache`), the throttle store among them (http.throttle_store names one).
    const stores = app.config.get<Record<string, { driver?: string; url?: string; timeout_ms?: number }>>('storage.stores', {})
    for (const [name, store] of Object.entries(stores))
      if (store.driver === 'redis') app.service('health').redis(`storage.${name}`, redisUrl(app.env, store.url), { timeoutMs: store.timeout_ms })
  },
})
