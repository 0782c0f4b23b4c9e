/**
 * The named services of an application, by name: what `app.service(name)`
 * and `app.make(name)` return, typed without a type argument. Empty here on
 * purpose: each provider and plugin adds its own entries where it attaches
 * them (declaration merging, as AdonisJS's `ContainerBindings`), so this
 * module imports nothing and everything may import it.
 *
 * @example
 * ```ts
 * declare module 'kiln-framework' {
 *   interface KilnServices { mailer: Mailer }
 * }
 * app.instance(MAILER, new Mailer(), 'mailer')
 * app.service('mailer').send(message) // typed as Mailer
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface KilnServices {}
