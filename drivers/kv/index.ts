import { defineBroadcastDriver } from '../../plugins/broadcasting/index.ts'
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
 * import kvDriver from 'kiln/drivers/kv'
 * plugins: [broadcasting(), kvDriver]
 * // config/broadcasting.ts
 * kv: { driver: 'kv', url: env.get('REDIS_URL'), prefix: 'shop:', key: env.get('RT_APP_KEY'), secret: env.get('RT_APP_SECRET') }
 * ```
 */
export default defineBroadcastDriver({
  name: DRIVER_NAME,
  create: (app, { name, config, appKey }) => new KvBroadcaster(name, config as KvConfig, appKey, app.logger),
})
