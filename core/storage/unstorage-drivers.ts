import { join, resolve } from 'node:path'
import { createStorage, type Driver, type Storage } from 'unstorage'
import memoryDriver from 'unstorage/drivers/memory'
import type { Application } from '../application/application.ts'
import type { DriverManager } from '../manager/driver-manager.ts'
import { appSlug } from '../support/app-slug.ts'
import { ATOMIC_UPDATE, atomicHook } from './atomic-update.ts'
import { fsLocks, LOCKS_FOLDER } from './fs-locks.ts'
import { MISSING_NOW } from './missing-now.ts'
import { memoryLocks, withLocks, type LockScope, type StoreLocks } from './store-lock.ts'
import { redisUrl } from '../support/redis-health.ts'

/**
 * Registers the kernel's unstorage drivers on a manager: `memory`, `fs`
 * (`base`, relative to the app root; writes are atomic) and `redis` (`url`,
 * `prefix`, default `<app name slug>:<store name>`, `timeout_ms`: while Redis is down, operations fail within it
 * with 503 and one log line per outage; `updateItem()` on it is atomic
 * across processes). Each store has locks (`storeLock()`): in this process
 * on `memory`, on this machine on `fs` (files in the store's `.kiln-locks`
 * folder), on every machine on `redis`. Both the
 * storage manager and the session stores use them, so a store configured for
 * one works for the other.
 *
 * @example
 * ```ts
 * registerUnstorageDrivers(manager)
 * manager.build('tmp', { driver: 'fs', base: 'storage/tmp' })
 * ```
 */
export function registerUnstorageDrivers(manager: DriverManager<Storage, Application>): void {
  manager.extend('memory', () => {
    const driver = memoryDriver()
    const storage = createStorage({ driver })
    // For missingNow(): the memory driver answers `hasItem` from its Map at once.
    Object.defineProperty(storage, MISSING_NOW, { value: (key: string) => !driver.hasItem(key, {}) })
    return withLocks(storage, memoryLocks())
  })
  manager.extend<{ base?: string }>('fs', (app, { config }) => {
    const base = resolve(app.root, config.base ?? 'storage/app')
    return withLocks(
      lazyStorage(async () => (await import('./atomic-fs-driver.ts')).atomicFsDriver({ base })),
      fsLocks(join(base, LOCKS_FOLDER)),
    )
  })
  manager.extend<{ url?: string; prefix?: string; timeout_ms?: number }>('redis', (app, { name, config }) =>
    lazyStorage(
      async () =>
        (await import('./redis-store-driver.ts')).failFastRedisDriver({
          url: redisUrl(app.env, config.url),
          // Named after the app and the store, so apps (and stores) sharing one Redis keep their keys apart.
          prefix: config.prefix ?? `${appSlug(app.config.get('app.name'))}:${name}`,
          timeoutMs: config.timeout_ms ?? 1000,
          store: name,
          logger: app.logger,
        }),
      { locks: 'machines' },
    ),
  )
}

/**
 * An unstorage instance whose driver module loads on first use, so optional
 * drivers (redis, and ioredis behind it) are imported only by apps that use them.
 * With `locks`, the loaded driver's `locks` property serves `storeLock()`,
 * seen as far as that scope says.
 *
 * @example
 * ```ts
 * const store = lazyStorage(async () => (await import('unstorage/drivers/redis')).default({ url }))
 * ```
 */
export function lazyStorage(load: () => Promise<Driver>, options: { locks?: LockScope } = {}): Storage {
  let loading: Promise<Driver> | undefined
  let ready: Promise<Storage> | undefined
  let storage: Storage | undefined
  let probe: ((key: string) => boolean) | undefined
  const driver = () =>
    (loading ??= load().then((loaded) => {
      const missing = (loaded as { missingNow?: (key: string) => boolean }).missingNow
      if (typeof missing === 'function') probe = missing
      return loaded
    }))
  const get = () =>
    (ready ??= driver().then((loaded) => {
      storage = createStorage({ driver: loaded })
      return storage
    }))
  // Once loaded, a call goes straight to the storage: an async wrapper would add two promises to every session read.
  const forward =
    (method: keyof Storage) =>
    (...args: unknown[]): Promise<unknown> => {
      if (!storage) return get().then((loaded) => (loaded[method] as (...a: unknown[]) => unknown)(...args))
      try {
        return Promise.resolve((storage[method] as (...a: unknown[]) => unknown)(...args))
      } catch (error) {
        return Promise.reject(error)
      }
    }
  const lazy = {
    getItem: forward('getItem'),
    getItemRaw: forward('getItemRaw'),
    getItems: forward('getItems'),
    setItem: forward('setItem'),
    setItemRaw: forward('setItemRaw'),
    setItems: forward('setItems'),
    removeItem: forward('removeItem'),
    hasItem: forward('hasItem'),
    getKeys: forward('getKeys'),
    getMeta: forward('getMeta'),
    clear: forward('clear'),
    dispose: async () => {
      if (ready) await (await ready).dispose()
      else if (loading) await (await loading).dispose?.()
    },
    // For updateItem(): a driver with updateItemRaw (redis) replaces items atomically.
    [ATOMIC_UPDATE]: atomicHook(driver),
    // For missingNow(): only once the storage is in use (a read before that goes the usual way and loads it).
    [MISSING_NOW]: (key: string) => storage !== undefined && probe !== undefined && probe(key),
  } as unknown as Storage
  if (!options.locks) return lazy
  // Through driver(): the store's one client, which dispose() closes however it was first used.
  return withLocks(
    lazy,
    lazyLocks(options.locks, async () => ((await driver()) as Driver & { locks: StoreLocks }).locks),
  )
}

/** Locks whose implementation loads with their store's driver, on first use. */
function lazyLocks(scope: LockScope, load: () => Promise<StoreLocks>): StoreLocks {
  return {
    scope,
    acquire: async (name, owner, ms) => (await load()).acquire(name, owner, ms),
    release: async (name, owner) => (await load()).release(name, owner),
    forceRelease: async (name) => (await load()).forceRelease(name),
    holder: async (name) => (await load()).holder(name),
  }
}
