import type { Storage } from 'unstorage'
import type { Application } from '../application/application.ts'
import { DriverManager } from '../manager/driver-manager.ts'
import { appSlug } from '../support/app-slug.ts'
import { registerUnstorageDrivers } from '../storage/unstorage-drivers.ts'
import { redisUrl } from '../support/redis-health.ts'

/**
 * The session store registry: a `DriverManager` over `config/session.ts`
 * `stores`, keyed by `driver`, with the kernel's unstorage drivers (`memory`,
 * `fs`, `redis`). Apps add their own with `extend`.
 *
 * @example
 * ```ts
 * app.service('session.stores').extend('dynamo', (app, { config }) => createStorage({ driver: dynamo(config) }))
 * ```
 */
export function createSessionStores(app: Application): DriverManager<Storage, Application> {
  const manager = new DriverManager<Storage, Application>(app, app.config, {
    kind: 'session store',
    file: 'session',
    connectionsKey: 'stores',
    defaultKey: 'driver',
  })
  registerUnstorageDrivers(manager)
  return manager
}

/**
 * Default store blocks, merged under whatever `config/session.ts` declares.
 * The Redis store's keys start with the app's name (`my_shop:sessions:`), so
 * two apps sharing one Redis never read each other's sessions.
 *
 * @example
 * ```ts
 * defaultStores(app).fs // { driver: 'fs', base: 'storage/framework/sessions' }
 * ```
 */
export function defaultStores(app: Application): Record<string, Record<string, unknown>> {
  return {
    memory: { driver: 'memory' },
    fs: { driver: 'fs', base: 'storage/framework/sessions' },
    redis: {
      driver: 'redis',
      url: redisUrl(app.env),
      prefix: `${appSlug(app.config.get('app.name'))}:sessions`,
      timeout_ms: app.config.get<number>('session.redis_timeout_ms', 1000),
    },
  }
}

/**
 * The session cookie's name when `config/session.ts` sets none: the app's
 * name as a slug plus `_session` (`my_shop_session`), so two apps on one
 * host (both on `localhost`, say) keep their sessions apart.
 *
 * @example
 * ```ts
 * sessionCookieName(app) // 'kiln_session' for APP_NAME=Kiln
 * ```
 */
export function sessionCookieName(app: Application): string {
  return `${appSlug(app.config.get('app.name'))}_session`
}

/**
 * The store the app's sessions live in (`config/session.ts` `driver`).
 *
 * @example
 * ```ts
 * await sessionStore(app).getKeys()
 * ```
 */
export function sessionStore(app: Application): Storage {
  return app.service('session.stores').connection()
}
