import { resolve } from 'node:path'
import { createStorage, type Storage } from 'unstorage'
import memoryDriver from 'unstorage/drivers/memory'
import type { Application } from '../application/application.ts'
import { DriverManager } from '../manager/driver-manager.ts'

/**
 * The session store registry: a `DriverManager` over `config/session.ts`
 * `stores`, keyed by `driver`. Each store is an unstorage instance; `memory`,
 * `fs` and `redis` ship with the kernel, and apps add their own with
 * `extend`.
 *
 * @example
 * ```ts
 * sessionStores(app).extend('dynamo', (app, { config }) => createStorage({ driver: dynamoDriver(config) }))
 * ```
 */
export function createSessionStores(app: Application): DriverManager<Storage, Application> {
  const manager = new DriverManager<Storage, Application>(app, app.config, {
    kind: 'session store',
    file: 'session',
    connectionsKey: 'stores',
    defaultKey: 'driver',
  })
  manager.extend('memory', () => createStorage({ driver: memoryDriver() }))
  manager.extend<{ base?: string }>('fs', (app) => {
    // Imported lazily: only apps that keep sessions on disk load the fs driver.
    const base = resolve(app.root, (app.config.get<string>('session.stores.fs.base') ?? 'storage/framework/sessions'))
    return lazyStorage(async () => (await import('unstorage/drivers/fs-lite')).default({ base }))
  })
  manager.extend<{ url?: string; prefix?: string }>('redis', (_app, { config }) =>
    lazyStorage(async () => (await import('unstorage/drivers/redis')).default({ url: config.url, base: config.prefix ?? 'kiln:sessions' })),
  )
  return manager
}

/** Default store blocks, merged under whatever `config/session.ts` declares. */
export function defaultStores(app: Application): Record<string, Record<string, unknown>> {
  return {
    memory: { driver: 'memory' },
    fs: { driver: 'fs', base: 'storage/framework/sessions' },
    redis: { driver: 'redis', url: app.env.get('REDIS_URL', 'redis://127.0.0.1:6379'), prefix: `${slug(app.config.get('app.name', 'kiln'))}:sessions` },
  }
}

function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-')
}

/**
 * An unstorage instance whose driver module loads on first use, so optional
 * drivers (redis) are imported only by apps that use them.
 */
function lazyStorage(load: () => Promise<import('unstorage').Driver>): Storage {
  let ready: Promise<Storage> | undefined
  const get = () => (ready ??= load().then((driver) => createStorage({ driver })))
  const forward =
    (method: keyof Storage) =>
    async (...args: unknown[]) =>
      ((await get())[method] as (...a: unknown[]) => unknown)(...args)
  return {
    getItem: forward('getItem'),
    setItem: forward('setItem'),
    removeItem: forward('removeItem'),
    hasItem: forward('hasItem'),
    getKeys: forward('getKeys'),
    clear: forward('clear'),
    dispose: async () => {
      if (ready) await (await ready).dispose()
    },
  } as unknown as Storage
}
