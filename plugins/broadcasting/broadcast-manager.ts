import { DriverManager, KilnError, type Application, type DriverResolver } from '../../core/index.ts'
import type { BroadcastMessage, Broadcaster } from './broadcaster.ts'
import { BroadcastFake } from './broadcast-fake.ts'
import { ChannelRegistry } from './channel-registry.ts'

/**
 * The app's broadcasting: the broadcaster registry (the kernel's
 * `DriverManager` over `config/broadcasting.ts`), the channel registry, and
 * the fake.
 *
 * @example
 * ```ts
 * const broadcast = app.service('broadcast')
 * broadcast.extend('audit', (app, { name, config }) => new AuditBroadcaster(name, config, key))
 * await broadcast.send({ channels: ['orders'], event: 'OrderShipped', payload: {} })
 * ```
 */
export class BroadcastManager {
  readonly drivers: DriverManager<Broadcaster, Application>
  readonly channels = new ChannelRegistry()
  private faked?: BroadcastFake

  constructor(private readonly app: Application) {
    this.drivers = new DriverManager<Broadcaster, Application>(app, app.config, { kind: 'broadcaster', file: 'broadcasting' })
  }

  /** Registers a driver. @example `manager.extend('audit', resolver)` */
  extend(driver: string, resolver: DriverResolver<Broadcaster, Application>): this {
    this.drivers.extend(driver, resolver)
    return this
  }

  /** A connection's broadcaster (the default when omitted). @example `manager.connection('kv')` */
  connection(name?: string): Broadcaster {
    return this.drivers.connection(name)
  }

  /**
   * Delivers a message through a connection, or records it when faked.
   *
   * @example
   * ```ts
   * await manager.send({ channels: ['news'], event: 'Published', payload: { id: 1 } }, 'log')
   * ```
   */
  async send(message: BroadcastMessage, connection?: string): Promise<void> {
    if (this.faked) {
      this.faked.sent.push(message)
      return
    }
    await this.connection(connection).broadcast(message)
  }

  /**
   * Throws, naming the configured connections, when `name` is not a
   * configured connection or cannot deliver in this app (`via('websocket')`
   * while another connection serves the sockets).
   *
   * @example
   * ```ts
   * manager.assertDeliverable('kv')
   * ```
   */
  assertDeliverable(name: string): void {
    const configured = this.drivers.connectionNames()
    const known = `Configured connections: ${configured.join(', ')}; the active one is "${this.drivers.defaultConnection()}" (config/broadcasting.ts).`
    if (!configured.includes(name)) throw new KilnError(`Cannot broadcast via "${name}": no such connection. ${known}`)
    if (this.faked) return
    const reason = this.connection(name).undeliverable?.()
    if (reason) throw new KilnError(`Cannot broadcast via "${name}": ${reason} ${known}`)
  }

  /**
   * Throws when the active connection (`BROADCAST_CONNECTION`) is not
   * configured: checked at boot, so a typo stops the app, naming the
   * configured connections, instead of failing every broadcast later.
   *
   * @example
   * ```ts
   * manager.assertActiveConnection() // KilnError: The active broadcast connection "pusher" ...
   * ```
   */
  assertActiveConnection(): void {
    const name = this.drivers.defaultConnection()
    const configured = this.drivers.connectionNames()
    if (!configured.includes(name)) {
      throw new KilnError(
        `The active broadcast connection "${name}" (BROADCAST_CONNECTION, or "default" in config/broadcasting.ts) is not configured. Configured connections: ${configured.join(', ')}.`,
      )
    }
  }

  /** Records broadcasts instead of sending them. @example `manager.fake()` */
  fake(): BroadcastFake {
    return (this.faked = new BroadcastFake())
  }

  /** Ends `fake()`. @example `manager.restore()` */
  restore(): void {
    this.faked = undefined
  }
}
