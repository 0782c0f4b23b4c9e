import { z } from 'zod'
import { configDefiner } from '../config/define-config.ts'
import type { Plugin } from './define-plugin.ts'

const pluginSchema = z.custom<Plugin>((value) => typeof value === 'object' && value !== null && typeof (value as Plugin).name === 'string', {
  message: 'expected a plugin made by definePlugin({ name, register, boot })',
})

/**
 * The schema of `config/app.ts`.
 *
 * @example
 * ```ts
 * // config/app.ts
 * export default defineConfig(({ env }) => ({
 *   name: 'Shop',
 *   key: env.get('APP_KEY'),
 *   base_path: env.get('APP_BASE_PATH', ''),
 *   plugins: [tok(), broadcasting()],
 * }))
 * ```
 */
export const appConfigSchema = z.strictObject({
  name: z.string().default('Kiln'),
  /** `local` (as `kiln new` writes it, and Laravel names it) means `development`. */
  env: z
    .enum(['production', 'development', 'local', 'test'])
    .default('production')
    .transform((env) => (env === 'local' ? 'development' : env)),
  debug: z.boolean().default(false),
  key: z.string().optional(),
  /** Earlier keys still decrypt and verify, so a key can be rotated. */
  previous_keys: z.array(z.string()).default([]),
  url: z.string().default('http://localhost:3000'),
  /** `APP_BASE_PATH`: the public prefix the browser sees; routes are declared without it. */
  base_path: z
    .string()
    .default('')
    .transform((p) => (p === '' || p === '/' ? '' : '/' + p.replace(/^\/+|\/+$/g, ''))),
  plugins: z.array(pluginSchema).default([]),
})

/**
 * Declares `config/app.ts` with its keys checked: `tsc` rejects a key this file does not have, as boot does.
 *
 * @example
 * ```ts
 * // config/app.ts
 * export default defineAppConfig({})
 * ```
 */
export const defineAppConfig = configDefiner(appConfigSchema)

/** The parsed `config/app.ts`. */
export type AppConfig = z.output<typeof appConfigSchema>
