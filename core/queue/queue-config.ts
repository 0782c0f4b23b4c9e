import { z } from 'zod'
import { configDefiner } from '../config/define-config.ts'

/**
 * The schema of `config/queue.ts`.
 *
 * @example
 * ```ts
 * export default defineConfig(({ env }) => ({
 *   default: env.get('QUEUE_CONNECTION', 'memory'),
 *   connections: { redis: { driver: 'redis', url: env.get('REDIS_URL'), prefix: 'shop' } },
 *   jobs: [SendWelcome],
 * }))
 * ```
 */
export const queueConfigSchema = z.strictObject({
  default: z.string().optional(),
  connections: z.record(z.string(), z.looseObject({ driver: z.string() })).default({}),
  /** Job classes a worker must know by name that live outside app/jobs/ (those there it finds by itself). */
  jobs: z.array(z.custom<Function>((v) => typeof v === 'function', { message: 'expected a job class' })).default([]),
})

/**
 * Declares `config/queue.ts` with its keys checked: `tsc` rejects a key this file does not have, as boot does.
 *
 * @example
 * ```ts
 * // config/queue.ts
 * export default defineQueueConfig({})
 * ```
 */
export const defineQueueConfig = configDefiner(queueConfigSchema)
