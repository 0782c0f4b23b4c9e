import { defineBroadcastDriver } from '../../plugins/broadcasting/index.ts'
import { HostedBroadcaster, type HostedConfig } from './hosted-broadcaster.ts'

export { HostedBroadcaster, type HostedConfig } from './hosted-broadcaster.ts'

/** The driver name in `config/broadcasting.ts`. */
export const DRIVER_NAME = 'hosted'

/**
 * The `hosted` broadcast driver plugin: Pusher or any Pusher-compatible
 * service (including another Kiln's rt server), through the `pusher` SDK,
 * loaded only when a connection uses it.
 *
 * @example
 * ```ts
 * import hostedDriver from 'kiln/drivers/hosted'
 * plugins: [broadcasting(), hostedDriver]
 * // config/broadcasting.ts: hosted: { driver: 'hosted', app_id, key, secret, cluster }
 * ```
 */
export default defineBroadcastDriver({
  name: DRIVER_NAME,
  create: (app, { name, config, appKey }) => new HostedBroadcaster(name, config as HostedConfig, appKey, app.logger),
})
