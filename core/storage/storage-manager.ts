import type { Storage as Store } from 'unstorage'
import type { Application } from '../application/application.ts'
import { currentApp } from '../application/current-app.ts'
import { DriverManager } from '../manager/driver-manager.ts'
import { registerUnstorageDrivers } from './unstorage-drivers.ts'

/**
 * Named key-value stores from `config/storage.ts` (unstorage: memory, fs,
 * redis), for caches, upload temp files and plugins. Swap a store's driver in
 * config with no code change.
 *
 * @example
 * ```ts
 * const cache = app.service('storage').store('cache')
 * await cache.setItem('stats', { users: 3 }, { ttl: 60 })
 * ```
 */
export class StorageManager {
  readonly stores: DriverManager<Store, Application>

  constructor(private readonly app: Application) {
    this.stores = new DriverManager<Store, Application>(app, app.config, { kind: 'storage', file: 'storage', connectionsKey: 'stores', defaultKey: 'default' })
    registerUnstorageDrivers(this.stores)
  }

  /** A named store (the default when omitted). @example `storage.store('uploads')` */
  store(name?: string): Store {
    return this.stores.connection(name)
  }

  /**
   * Replaces a store (the default when omitted) with an empty one in memory, for this app, and returns it:
   * code under test writes there, nothing reaches the disk or Redis, and the test reads what was written.
   *
   * @example
   * ```ts
   * const disk = await app.service('storage').fake('local')
   * await disk.hasItem('avatars/1.png')
   * ```
   */
  async fake(name?: string): Promise<Store> {
    const store = name ?? this.app.config.get<string>('storage.default', 'local')
    await this.stores.purge(store)
    this.app.config.set(`storage.stores.${store}`, { driver: 'memory' })
    return this.stores.connection(store)
  }
}

/**
 * The storage of the app in scope.
 *
 * @example
 * ```ts
 * await Storage.store('cache').getItem('stats')
 * ```
 */
export const Storage = {
  store(name?: string): import('unstorage').Storage {
    return currentApp().service('storage').store(name)
  },
  /** Swaps a store for an empty one in memory (tests). @example `const disk = await Storage.fake('local')` */
  fake(name?: string): Promise<import('unstorage').Storage> {
    return currentApp().service('storage').fake(name)
  },
}
