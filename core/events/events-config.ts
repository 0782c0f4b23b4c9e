import { z } from 'zod'
import { configDefiner } from '../config/define-config.ts'

/**
 * The schema of `config/events.ts`: listeners wired in config.
 *
 * @example
 * ```ts
 * export default defineConfig({
 *   listen: [
 *     [OrderShipped, [SendShipmentEmail, UpdateStock]],
 *   ],
 * })
 * ```
 */
export const eventsConfigSchema = z.strictObject({
  listen: z
    .array(
      z.tuple([
        z.custom<Function>((v) => typeof v === 'function', { message: 'expected an event class' }),
        z.array(z.custom<Function>((v) => typeof v === 'function', { message: 'expected a listener' })),
      ]),
    )
    .default([]),
})

/**
 * Declares `config/events.ts` with its keys checked: `tsc` rejects a key this file does not have, as boot does.
 *
 * @example
 * ```ts
 * // config/events.ts
 * export default defineEventsConfig({})
 * ```
 */
export const defineEventsConfig = configDefiner(eventsConfigSchema)
