import type { InjectionToken } from 'tsyringe'
import type { z } from 'zod'
import type { Application } from './application.ts'
import type { KilnServices, ServiceName } from './kiln-services.ts'

/**
 * One service a plugin binds: how it is built, the container token it also
 * answers to, and how it is closed.
 *
 * @example
 * ```ts
 * const db: ServiceBinding<DatabaseManager> = { make: (app) => new DatabaseManager(app), token: DatabaseManager, close: (db) => db.close() }
 * ```
 */
export interface ServiceBinding<T> {
  /** Builds the service, once, as the plugin registers. */
  make(app: Application): T
  /** Another container token it answers to (usually its class), beside `serviceToken(name)`. */
  token?: InjectionToken<T>
  /** Closes it with the app (a `terminating` hook, so in reverse order of binding). */
  close?(service: T): void | PromiseLike<unknown>
}

/**
 * The services a plugin binds, by their name in {@link KilnServices}: a
 * function that builds one, or a {@link ServiceBinding}. They are bound in
 * the order written, after `prepare` and before `register`.
 *
 * @example
 * ```ts
 * const services: PluginServices = { gate: (app) => new AuthorizationGate(app.root) }
 * ```
 */
export type PluginServices = { [K in ServiceName]?: ((app: Application) => KilnServices[K]) | ServiceBinding<KilnServices[K]> }

/**
 * A Kiln plugin: features (tok, comp, broadcasting), drivers, the kernel's
 * own providers and the application's own extensions all take this shape.
 * Each step runs for every plugin, in the order listed, before the next step.
 *
 * - `config`: the plugin's config file and zod schema, validated before `register`.
 * - `prepare(app)`: what the services need before they are built (config defaults, checks that a driver's package is installed).
 * - `services`: the services it binds by name (`app.service(name)`), each declared in `KilnServices`.
 * - `register(app)`: the rest of its wiring: registry entries, drivers, middleware. Runs for every plugin before any `boot`.
 * - `boot(app)`: add routes, middleware, commands, view helpers; may use what other plugins registered.
 */
export interface Plugin {
  name: string
  config?: { file: string; schema: z.ZodType }
  prepare?(app: Application): void | Promise<void>
  services?: PluginServices
  register?(app: Application): void | Promise<void>
  boot?(app: Application): void | Promise<void>
}

/** `P`, with a compile error on any entry of `services` that is not a key of `KilnServices`. */
type KnownServices<P> = P extends { services: infer S } ? { services: { [K in keyof S]: K extends ServiceName ? S[K] : never } } : unknown

/**
 * Declares a plugin. List it in `config/app.ts` under `plugins` to enable it.
 *
 * @example
 * ```ts
 * import { definePlugin } from 'kiln-framework'
 *
 * export const hello = definePlugin({
 *   name: 'hello',
 *   boot(app) {
 *     app.router.get('/hello', () => ({ hello: 'world' }))
 *   },
 * })
 * ```
 */
export function definePlugin<P extends Plugin>(plugin: P & KnownServices<P>): P {
  if (!plugin || typeof plugin.name !== 'string' || plugin.name === '') throw new TypeError('definePlugin() needs a `name`.')
  return plugin
}

/**
 * Registers one plugin: `prepare`, then its `services` in the order written
 * (each bound by name and, when it has one, closed with the app), then
 * `register`. Called by `Application.register` for every plugin in turn.
 *
 * @example
 * ```ts
 * for (const plugin of plugins) await registerPlugin(app, plugin)
 * ```
 */
export async function registerPlugin(app: Application, plugin: Plugin): Promise<void> {
  await plugin.prepare?.(app)
  for (const [name, entry] of Object.entries(plugin.services ?? {}) as Array<[ServiceName, ServiceBinding<unknown> | ((app: Application) => unknown)]>) {
    const binding = typeof entry === 'function' ? { make: entry } : entry
    const service = app.instance(name, binding.make(app) as never, binding.token as never)
    const close = binding.close
    if (close) app.terminating(async () => void (await close(service)))
  }
  await plugin.register?.(app)
}
