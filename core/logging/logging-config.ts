import { z } from 'zod'
import { configDefiner } from '../config/define-config.ts'

/**
 * The schema of `config/logging.ts`: a level and the channels lines go to.
 *
 * @example
 * ```ts
 * // config/logging.ts
 * export default defineConfig(({ env }) => ({
 *   level: env.get('LOG_LEVEL', 'info'),
 *   channels: ['stdout', 'file'],
 *   file: { path: 'storage/logs/kiln.log' },
 *   pretty: env.has('LOG_PRETTY') ? env.boolean('LOG_PRETTY') : undefined,
 * }))
 * ```
 */
export const loggingConfigSchema = z.strictObject({
  /** `silent` turns logging off; tests default to it. */
  level: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).optional(),
  channels: z.array(z.enum(['stdout', 'file'])).default(['stdout']),
  file: z.strictObject({ path: z.string().default('storage/logs/kiln.log') }).default({ path: 'storage/logs/kiln.log' }),
  /** Extra paths to redact, in pino's syntax (`req.headers.authorization`). */
  redact: z.array(z.string()).default([]),
  /**
   * Human-readable stdout lines (pino-pretty) instead of JSON. Left out, they
   * are pretty when `APP_ENV=development` and stdout is a terminal, JSON
   * everywhere else (production, tests, log collectors reading a pipe).
   * The file channel is JSON either way.
   */
  pretty: z.boolean().optional(),
})

/**
 * Declares `config/logging.ts` with its keys checked: `tsc` rejects a key this file does not have, as boot does.
 *
 * @example
 * ```ts
 * // config/logging.ts
 * export default defineLoggingConfig({})
 * ```
 */
export const defineLoggingConfig = configDefiner(loggingConfigSchema)
