/**
 * Injection tokens for the services every Kiln application binds.
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
/** The application's logger. @example `app.make<Logger>(LOGGER).info('hi')` */
export const LOGGER = Symbol.for('kiln.logger')
/** The application's router. @example `app.make<Router>(ROUTER).get('/', () => 'ok')` */
export const ROUTER = Symbol.for('kiln.router')
/** The application's encrypter (AES-256-GCM keyed by `APP_KEY`). @example `app.make<Encrypter>(ENCRYPTER)` */
export const ENCRYPTER = Symbol.for('kiln.encrypter')
