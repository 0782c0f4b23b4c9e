import { definePlugin, parseAppKey, type Application, type Plugin } from '../../core/index.ts'
import type { Broadcaster, BroadcasterConfig } from './broadcaster.ts'
import type { AppKeys } from './signing-broadcaster.ts'

/** What a driver module declares. */
export interface BroadcastDriverDefinition {
  /** The driver name in `config/broadcasting.ts` connections: `log`, `kv`. */
  name: string
  /** Extra names for the same driver (`rt` for `websocket`). */
  aliases?: string[]
  create(app: Application, ctx: { name: string; config: BroadcasterConfig; appKey: AppKeys }): Broadcaster
  /** Optional plugin steps (routes, servers) the driver needs. */
  boot?(app: Application): void | Promise<void>
}

/**
 * Makes a broadcast driver a plugin: it registers itself with
 * `Broadcast.extend` when the app boots. List it in `config/app.ts`.
 *
 * @example
 * ```ts
 * export const DRIVER_NAME = 'audit'
 * export default defineBroadcastDriver({
 *   name: DRIVER_NAME,
 *   create: (app, { name, config, appKey }) => new AuditBroadcaster(name, config, appKey),
 * })
 * ```
 */
function appKeys(app: Application): AppKeys {
  const current = app.config.get<string>('app.key')
  return { key: parseAppKey(current), current, previous: app.config.get<string[]>('app.previous_keys', []) }
}

export function defineBroadcastDriver(definition: BroadcastDriverDefinition): Plugin {
  return definePlugin({
    name: `broadcast-driver:${definition.name}`,
    register(app) {
      const manager = app.service('broadcast')
      for (const driver of [definition.name, ...(definition.aliases ?? [])]) {
        manager.extend(driver, (app, { name, config }) => definition.create(app, { name, config: config as BroadcasterConfig, appKey: appKeys(app) }))
      }
    },
    boot: definition.boot,
  })
}
