import type { z } from 'zod'
import type { Application } from './application.ts'

/**
 * A Kiln plugin: features (tok, comp, broadcasting), drivers, and the
 * application's own extensions all take this shape.
 *
 * - `config`: the plugin's config file and zod schema, validated before `register`.
 * - `register(app)`: bind services and registry entries. Runs for every plugin before any `boot`.
 * - `boot(app)`: add routes, middleware, commands, view helpers; may use what other plugins registered.
 */
export interface Plugin {
  name: string
  config?: { file: string; schema: z.ZodType }
  register?(app: Application): void | Promise<void>
  boot?(app: Application): void | Promise<void>
}

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
export function definePlugin<P extends Plugin>(plugin: P): P {
  if (!plugin || typeof plugin.name !== 'string' || plugin.name === '') throw new TypeError('definePlugin() needs a `name`.')
  return plugin
}
