import { z } from 'zod'

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
export const eventsConfigSchema = z.object({
  listen: z
    .array(
      z.tuple([
        z.custom<Function>((v) => typeof v === 'function', { message: 'expected an event class' }),
        z.array(z.custom<Function>((v) => typeof v === 'function', { message: 'expected a listener' })),
      ]),
    )
    .default([]),
})
