import { z } from 'zod'
import { configDefiner } from '../config/define-config.ts'

/**
 * The schema of `config/views.ts`.
 *
 * @example
 * ```ts
 * export default defineConfig({ path: 'resources/views', cache: true })
 * ```
 */
export const viewsConfigSchema = z.strictObject({
  engine: z.string().default('handlebars'),
  path: z.string().default('resources/views'),
  /** Compiled templates are kept; defaults to on outside development. */
  cache: z.boolean().optional(),
  engines: z.record(z.string(), z.looseObject({ driver: z.string() })).default({ handlebars: { driver: 'handlebars' } }),
})

/**
 * Declares `config/views.ts` with its keys checked: `tsc` rejects a key this file does not have, as boot does.
 *
 * @example
 * ```ts
 * // config/views.ts
 * export default defineViewsConfig({})
 * ```
 */
export const defineViewsConfig = configDefiner(viewsConfigSchema)
