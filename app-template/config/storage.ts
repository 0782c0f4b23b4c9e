import { defineStorageConfig } from 'kiln-framework'

/**
 * Key-value stores (`Storage.store('cache')`): files under storage/ by
 * default, Redis with one env change. A Redis store's keys start with
 * APP_NAME as a slug and the store's name (`my_app:cache:`).
 */
export default defineStorageConfig(({ env }) => ({
  default: 'local',
  stores: {
    // The app's files (avatars). FILES_STORE: fs (storage/app on this machine) | redis (every machine reads them).
    local: { driver: env.get('FILES_STORE', 'fs'), base: 'storage/app', url: env.get('REDIS_URL', 'redis://127.0.0.1:6379') },
    // Component uploads wait here until the component stores them (config/comp.ts `uploads.store`).
    // UPLOADS_STORE: fs | redis | memory. Each driver reads its own keys and ignores the others.
    tmp: { driver: env.get('UPLOADS_STORE', 'fs'), base: 'storage/tmp', url: env.get('REDIS_URL', 'redis://127.0.0.1:6379') },
    memory: { driver: 'memory' },
    // CACHE_STORE: memory | fs | redis.
    cache: { driver: env.get('CACHE_STORE', 'memory'), base: 'storage/framework/cache', url: env.get('REDIS_URL', 'redis://127.0.0.1:6379') },
    // Rate limits (config/http.ts `throttle_store`). THROTTLE_STORE: memory (this process) | redis (every process).
    throttle: { driver: env.get('THROTTLE_STORE', 'memory'), url: env.get('REDIS_URL', 'redis://127.0.0.1:6379') },
  },
}))
