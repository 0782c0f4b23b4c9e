import { z } from 'zod'

/**
 * The schema of `config/views.ts`.
 *
 * @example
 * ```ts
 * export default defineConfig({ path: 'resources/views', cache: true })
 * ```
 */
export const viewsConfigSchema = z.object({
  engine: z.string().default('handlebars'),
  path: z.string().default('resources/views'),
  /** Compiled templates are kept; defaults to on outside development. */
  cache: z.boolean().optional(),
  engines: z.record(z.string(), z.looseObject({ driver: z.string() })).default({ handlebars: { driver: 'handlebars' } }),
})
