/**
 * The named services of an application, by name: what `app.service(name)`
 * and `app.make(name)` return, typed without a type argument, and the only
 * names `app.instance()`, `app.singleton()`, a plugin's `services` and
 * `app.hasService()` accept. Empty here on purpose: each provider and plugin
 * adds its own entries where it binds them (declaration merging, as
 * AdonisJS's `ContainerBindings`), always as
 * `declare module 'kiln-framework'`, so this module imports nothing and
 * everything may import it.
 *
 * @example
 * ```ts
 * declare module 'kiln-framework' {
 *   interface KilnServices { mailer: Mailer }
 * }
 * export const mailer = definePlugin({ name: 'mailer', services: { mailer: () => new Mailer() } })
 * app.service('mailer').send(message) // typed as Mailer
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface KilnServices {}

/**
 * The name of a service some provider or plugin binds: a key of
 * {@link KilnServices}. A misspelt name fails to compile.
 *
 * @example
 * ```ts
 * const name: ServiceName = 'db'
 * ```
 */
export type ServiceName = keyof KilnServices
