import { KilnError } from '../support/errors.ts'
import type { ConfigRepository } from '../config/config-repository.ts'

/** What a driver resolver receives besides the application. */
export interface DriverContext<C = Record<string, unknown>> {
  /** The connection's name, e.g. `main` in `connections.main`. */
  name: string
  /** The connection's config block, including `driver`. */
  config: C & { driver: string }
}

/** Builds one driver instance for a named connection. */
export type DriverResolver<T, A = unknown, C = Record<string, unknown>> = (app: A, ctx: DriverContext<C>) => T

/** Where a manager finds its connections in config. */
export interface DriverManagerOptions {
  /** What the drivers are, for error messages: `broadcaster`, `session store`. */
  kind: string
  /** The config file, without extension: `broadcasting`. */
  file: string
  /** The dotted key (inside the file) of the connections map. Default `connections`. */
  connectionsKey?: string
  /** The dotted key (inside the file) of the default connection's name. Default `default`. */
  defaultKey?: string
}

/**
 * One generic driver manager (Laravel's Manager): every registry in Kiln —
 * broadcasters, guards, session stores, storage, queues, view engines — is one
 * of these. Drivers are registered with `extend`; connections are named blocks
 * in a config file whose `driver` key picks the resolver. Instances are cached
 * per connection until `purge`.
 *
 * @example
 * ```ts
 * // config/broadcasting.ts: { default: 'main', connections: { main: { driver: 'log' } } }
 * const broadcasters = new DriverManager<Broadcaster>(app, app.config, { kind: 'broadcaster', file: 'broadcasting' })
 * broadcasters.extend('log', (app, { name, config }) => new LogBroadcaster(config))
 * broadcasters.connection().broadcast(['orders'], 'OrderShipped', {})
 * ```
 */
export class DriverManager<T, A = unknown> {
  private readonly resolvers = new Map<string, DriverResolver<T, A, any>>()
  private readonly instances = new Map<string, T>()
  private readonly connectionsKey: string
  private readonly defaultKey: string

  constructor(
    private readonly app: A,
    private readonly config: ConfigRepository,
    readonly options: DriverManagerOptions,
  ) {
    this.connectionsKey = options.connectionsKey ?? 'connections'
    this.defaultKey = options.defaultKey ?? 'default'
  }

  /**
   * Registers (or replaces) the resolver for a driver name.
   *
   * @example
   * ```ts
   * Broadcast.extend('audit', (app, { config }) => new AuditBroadcaster(config))
   * ```
   */
  extend<C = Record<string, unknown>>(driver: string, resolver: DriverResolver<T, A, C>): this {
    this.resolvers.set(driver, resolver)
    return this
  }

  /** True when a resolver is registered for `driver`. @example `manager.hasDriver('log')` */
  hasDriver(driver: string): boolean {
    return this.resolvers.has(driver)
  }

  /** The registered driver names. @example `manager.drivers() // ['log', 'null']` */
  drivers(): string[] {
    return [...this.resolvers.keys()]
  }

  /** The configured connection names. @example `manager.connectionNames()` */
  connectionNames(): string[] {
    return Object.keys(this.config.get<Record<string, unknown>>(`${this.options.file}.${this.connectionsKey}`, {}))
  }

  /** The default connection's name from config. @example `manager.defaultConnection() // 'log'` */
  defaultConnection(): string {
    const name = this.config.get<string | undefined>(`${this.options.file}.${this.defaultKey}`)
    if (!name) throw new KilnError(`No default ${this.options.kind} connection is set in config/${this.options.file}.ts (key "${this.defaultKey}").`)
    return name
  }

  /**
   * The instance for a named connection (the default when omitted), built once and cached.
   *
   * @example
   * ```ts
   * manager.connection('redis')
   * ```
   */
  connection(name?: string): T {
    const connection = name ?? this.defaultConnection()
    const cached = this.instances.get(connection)
    if (cached !== undefined) return cached
    const instance = this.resolve(connection)
    this.instances.set(connection, instance)
    return instance
  }

  /**
   * Builds a driver instance from an explicit config block, uncached: for
   * one-off connections that are not in the config file.
   *
   * @example
   * ```ts
   * manager.build('adhoc', { driver: 'memory' })
   * ```
   */
  build(name: string, config: { driver: string } & Record<string, unknown>): T {
    const resolver = this.resolvers.get(config.driver)
    if (!resolver) {
      const known = this.drivers().join(', ') || 'none'
      throw new KilnError(`Unknown ${this.options.kind} driver "${config.driver}" for connection "${name}" in config/${this.options.file}.ts.`, {
        hint: `Registered drivers: ${known}. Enable the plugin that provides it, or register it with extend().`,
      })
    }
    return resolver(this.app, { name, config })
  }

  /**
   * Forgets cached instances (one, or all), calling their `close()`, `disconnect()` or `dispose()` if they have one.
   *
   * @example
   * ```ts
   * await manager.purge('redis')
   * ```
   */
  async purge(name?: string): Promise<void> {
    const names = name === undefined ? [...this.instances.keys()] : [name]
    for (const n of names) {
      const instance = this.instances.get(n) as { close?: () => unknown; disconnect?: () => unknown; dispose?: () => unknown } | undefined
      this.instances.delete(n)
      if (instance && typeof instance.close === 'function') await instance.close()
      else if (instance && typeof instance.disconnect === 'function') await instance.disconnect()
      else if (instance && typeof instance.dispose === 'function') await instance.dispose()
    }
  }

  /** The instances built so far. @example `for (const [name, b] of manager.resolved()) ...` */
  resolved(): ReadonlyMap<string, T> {
    return this.instances
  }

  private resolve(name: string): T {
    const config = this.config.get<Record<string, unknown> | undefined>(`${this.options.file}.${this.connectionsKey}.${name}`)
    if (!config || typeof config !== 'object') {
      const known = this.connectionNames().join(', ') || 'none'
      throw new KilnError(`Unknown ${this.options.kind} connection "${name}" in config/${this.options.file}.ts.`, { hint: `Configured connections: ${known}.` })
    }
    if (typeof config.driver !== 'string') {
      throw new KilnError(`The ${this.options.kind} connection "${name}" in config/${this.options.file}.ts has no "driver".`)
    }
    return this.build(name, config as { driver: string })
  }
}
