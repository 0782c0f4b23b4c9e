import { z } from 'zod'

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
export const queueConfigSchema = z.object({
  default: z.string().optional(),
  connections: z.record(z.string(), z.looseObject({ driver: z.string() })).default({}),
  /** Job classes workers must know by name. */
  jobs: z.array(z.custom<Function>((v) => typeof v === 'function', { message: 'expected a job class' })).default([]),
})
