import { currentApp, type Application, type DriverResolver } from '../../core/index.ts'
import type { Broadcaster } from './broadcaster.ts'
import type { BroadcastFake } from './broadcast-fake.ts'
import type { BroadcastManager } from './broadcast-manager.ts'
import type { ChannelCallback, ChannelClass, ChannelOptions } from './channel-registry.ts'

function manager(): BroadcastManager {
  return currentApp().service('broadcast')
}

/**
 * Broadcasting for the app in scope.
 *
 * @example
 * ```ts
 * // routes/channels.ts
 * Broadcast.channel('orders.{order}', (user, order) => user.id === order.user_id, { bind: { order: Order } })
 * // a custom driver
 * Broadcast.extend('audit', (app, { name, config }) => new AuditBroadcaster(name, config, key))
 * // tests
 * const fake = Broadcast.fake()
 * ```
 */
export const Broadcast = {
  channel(pattern: string, handler: ChannelCallback | ChannelClass, options?: ChannelOptions): void {
    manager().channels.channel(pattern, handler, options)
  },
  extend(driver: string, resolver: DriverResolver<Broadcaster, Application>): void {
    manager().extend(driver, resolver)
  },
  connection(name?: string): Broadcaster {
    return manager().connection(name)
  },
  fake(): BroadcastFake {
    return manager().fake()
  },
  restore(): void {
    manager().restore()
  },
}
