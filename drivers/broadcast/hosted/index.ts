import { requireDriverPackages } from '../../../core/index.ts'
import { defineBroadcastDriver } from '../../../plugins/broadcasting/index.ts'
import { HostedBroadcaster, type HostedConfig } from './hosted-broadcaster.ts'
import { checkHostedConfig } from './hosted-config.ts'

export { HostedBroadcaster, type HostedConfig } from './hosted-broadcaster.ts'
export { hostedConfigSchema, checkHostedConfig } from './hosted-config.ts'

/** The driver name in `config/broadcasting.ts`. */
export const DRIVER_NAME = 'hosted'

/**
 * The `hosted` broadcast driver plugin: Pusher or any Pusher-compatible
 * service (including another Kiln's rt server), through the `pusher` SDK,
 * loaded only when a connection uses it.
 *
 * @example
 * ```ts
 * import hostedDriver from 'kiln-framework/drivers/hosted'
 * plugins: [broadcasting(), hostedDriver]
 * // config/broadcasting.ts: hosted: { driver: 'hosted', app_id, key, secret, cluster }
 * ```
 */
export default defineBroadcastDriver({
  name: DRIVER_NAME,
  create: (app, { name, config, appKey }) => new HostedBroadcaster(name, config as HostedConfig, appKey, app.logger, app.root),
  // The active connection is checked at boot, so missing PUSHER_* settings stop the app with their names instead of a 500 later.
  boot(app) {
    const active = app.config.get<string>('broadcasting.default')
    const config = app.config.get<{ driver?: string } | undefined>(`broadcasting.connections.${active}`)
    if (config?.driver !== DRIVER_NAME) return
    requireDriverPackages('broadcasting.hosted', `The hosted broadcast connection "${active}"`, app.root)
    checkHostedConfig(active, config)
  },
})
