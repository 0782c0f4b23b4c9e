import { appSlug, redisUrl, requireDriverPackages } from '../../../core/index.ts'
import { defineBroadcastDriver } from '../../../plugins/broadcasting/index.ts'
import { KvBroadcaster, type KvConfig } from './kv-broadcaster.ts'

export { KvBroadcaster, type KvConfig, type KvWireMessage } from './kv-broadcaster.ts'

/** The driver name in `config/broadcasting.ts`. */
export const DRIVER_NAME = 'kv'

/**
 * The `kv` broadcast driver plugin (Redis pub/sub through ioredis, loaded
 * only when a connection uses it).
 *
 * @example
 * ```ts
 * import kvDriver from 'kiln-framework/drivers/kv'
 * plugins: [broadcasting(), kvDriver]
 * // config/broadcasting.ts
 * kv: { driver: 'kv', url: env.get('REDIS_URL'), prefix: 'shop:', key: env.get('RT_APP_KEY'), secret: env.get('RT_APP_SECRET') }
 * ```
 */
export default defineBroadcastDriver({
  name: DRIVER_NAME,
  // Left out, the prefix is the app's name (`my_shop:`), as rt's scaling prefix is: the two must match.
  create: (app, { name, config, appKey }) =>
    new KvBroadcaster(
      name,
      {
        ...(config as KvConfig),
        // Left out, the URL is REDIS_URL as the app reads it (its .env too, not only the process's variables).
        url: redisUrl(app.env, (config as KvConfig).url),
        prefix: (config as KvConfig).prefix ?? `${appSlug(app.config.get('app.name'))}:`,
      },
      appKey,
      app.logger,
      app.root,
    ),
  // ioredis is an optional package: an app whose active connection is kv must have it, and learns so at boot.
  boot(app) {
    const active = app.config.get<string>('broadcasting.default')
    if (app.config.get(`broadcasting.connections.${active}.driver`) !== DRIVER_NAME) return
    requireDriverPackages('broadcasting.kv', `The kv broadcast connection "${active}"`, app.root)
    // Broadcasts published while this Redis is down are lost: the readiness answer (GET /up?ready) names it.
    const url = redisUrl(app.env, app.config.get<string | undefined>(`broadcasting.connections.${active}.url`))
    app.service('health').redis(`broadcasting.${active}`, url)
  },
})
