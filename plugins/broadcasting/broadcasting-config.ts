import { z } from 'zod'
import { configDefiner } from '../../core/config/define-config.ts'

/**
 * The schema of `config/broadcasting.ts`.
 *
 * @example
 * ```ts
 * export default defineConfig(({ env }) => ({
 *   default: env.get('BROADCAST_CONNECTION', 'log'),
 *   connections: {
 *     log: { driver: 'log' },
 *     null: { driver: 'null' },
 *     hosted: { driver: 'hosted', key: env.get('PUSHER_APP_KEY'), secret: env.get('PUSHER_APP_SECRET'), app_id: env.get('PUSHER_APP_ID') },
 *   },
 * }))
 * ```
 */
export const broadcastingConfigSchema = z.strictObject({
  /** The active connection; `BROADCAST_CONNECTION`, else `log`. */
  default: z.string().optional(),
  connections: z.record(z.string(), z.looseObject({ driver: z.string() })).default({}),
  /** False leaves out `POST /broadcasting/auth` and `/broadcasting/user-auth`. */
  routes: z.boolean().default(true),
  /** Middleware in front of the authorisation routes. */
  middleware: z.array(z.string()).default(['web']),
  /** The `config/storage.ts` store that records token-authenticated socket ids for `toOthers()` (default: `cache`, else the default store). */
  socket_store: z.string().optional(),
})

/**
 * Declares `config/broadcasting.ts` with its keys checked: `tsc` rejects a key this file does not have, as boot does.
 *
 * @example
 * ```ts
 * // config/broadcasting.ts
 * export default defineBroadcastingConfig({})
 * ```
 */
export const defineBroadcastingConfig = configDefiner(broadcastingConfigSchema)
