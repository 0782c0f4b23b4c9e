import { resolve } from 'node:path'
import { createStorage, type Driver, type Storage } from 'unstorage'
import memoryDriver from 'unstorage/drivers/memory'
import type { Application } from '../application/application.ts'
import type { DriverManager } from '../manager/driver-manager.ts'

/**
 * Registers the kernel's unstorage drivers on a manager: `memory`, `fs`
 * (`base`, relative to the app root) and `redis` (`url`, `prefix`). Both the
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
  manager.extend('memory', () => createStorage({ driver: memoryDriver() }))
  manager.extend<{ base?: string }>('fs', (app, { config }) => {
    const base = resolve(app.root, config.base ?? 'storage/app')
    return lazyStorage(async () => (await import('unstorage/drivers/fs-lite')).default({ base }))
  })
  manager.extend<{ url?: string; prefix?: string }>('redis', (app, { config }) =>
    lazyStorage(async () => (await import('unstorage/drivers/redis')).default({ url: config.url ?? app.env.get('REDIS_URL', 'redis://127.0.0.1:6379'), base: config.prefix ?? 'kiln' })),
  )
}

/**
 * An unstorage instance whose driver module loads on first use, so optional
 * drivers (redis, and ioredis behind it) are imported only by apps that use them.
 *
 * @example
 * ```ts
 * const store = lazyStorage(async () => (await import('unstorage/drivers/redis')).default({ url }))
 * ```
 */
export function lazyStorage(load: () => Promise<Driver>): Storage {
  let ready: Promise<Storage> | undefined
  const get = () => (ready ??= load().then((driver) => createStorage({ driver })))
  const forward =
    (method: keyof Storage) =>
    async (...args: unknown[]) =>
      ((await get())[method] as (...a: unknown[]) => unknown)(...args)
  return {
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
    },
  } as unknown as Storage
}
