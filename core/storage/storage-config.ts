import { z } from 'zod'
import { configDefiner } from '../config/define-config.ts'

/**
 * The schema of `config/storage.ts`.
 *
 * @example
 * ```ts
 * export default defineConfig(({ env }) => ({
 *   default: 'local',
 *   stores: {
 *     local: { driver: 'fs', base: 'storage/app' },
 *     cache: { driver: env.get('CACHE_DRIVER', 'memory') },
 *     shared: { driver: 'redis', url: env.get('REDIS_URL'), prefix: 'shop' },
 *   },
 * }))
 * ```
 */
export const storageConfigSchema = z.strictObject({
  default: z.string().default('local'),
  stores: z
    .record(z.string(), z.looseObject({ driver: z.string() }))
    .default({ local: { driver: 'fs', base: 'storage/app' }, memory: { driver: 'memory' }, tmp: { driver: 'fs', base: 'storage/tmp' } }),
})

/**
 * Declares `config/storage.ts` with its keys checked: `tsc` rejects a key this file does not have, as boot does.
 *
 * @example
 * ```ts
 * // config/storage.ts
 * export default defineStorageConfig({})
 * ```
 */
export const defineStorageConfig = configDefiner(storageConfigSchema)
