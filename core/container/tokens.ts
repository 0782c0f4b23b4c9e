import type { ServiceName } from '../application/kiln-services.ts'

/**
 * Injection tokens for the services every Kiln application binds: the
 * application, its configuration and environment, and one token per named
 * service, {@link serviceToken}. Kiln declares its container tokens here
 * only; a service bound by a plugin answers to `serviceToken(name)` too.
 *
 * tsx emits no decorator metadata, so every injected constructor parameter names
 * its token explicitly with `@inject(TOKEN)`.
 *
 * @example
 * ```ts
 * import { inject, injectable } from 'tsyringe'
 * import { CONFIG, type ConfigRepository } from 'kiln-framework'
 *
 * @injectable()
 * class Mailer {
 *   constructor(@inject(CONFIG) private config: ConfigRepository) {}
 * }
 * ```
 */
export const APP = Symbol.for('kiln.app')
/** The application's {@link ConfigRepository}. @example `app.make<ConfigRepository>(CONFIG).get('app.name')` */
export const CONFIG = Symbol.for('kiln.config')
/** The application's {@link Env}. @example `app.make<Env>(ENV).get('APP_KEY')` */
export const ENV = Symbol.for('kiln.env')

/**
 * The container token of a named service: every service bound by name
 * (`app.instance(name, value)`, a plugin's `services`) is registered under it,
 * so a class the container builds can ask for any of them.
 *
 * @example
 * ```ts
 * @injectable()
 * class Reports {
 *   constructor(@inject(serviceToken('db')) private readonly db: DatabaseManager) {}
 * }
 * ```
 */
export function serviceToken(name: ServiceName): symbol {
  // Symbol.for: the same token from every copy of this module (a test app, a worker, a second bundle chunk).
  return Symbol.for(`kiln.${name}`)
}

/** The application's logger. @example `app.make<Logger>(LOGGER).info('hi')` */
export const LOGGER = serviceToken('logger')
/** The application's router. @example `app.make<Router>(ROUTER).get('/', () => 'ok')` */
export const ROUTER = serviceToken('router')
/** The application's encrypter (AES-256-GCM keyed by `APP_KEY`). @example `app.make<Encrypter>(ENCRYPTER)` */
export const ENCRYPTER = serviceToken('encrypter')
