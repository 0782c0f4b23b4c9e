import { z } from 'zod'
import type { CompConfig } from './comp-config.ts'

/**
 * The body of `POST /comp/update`, checked before anything else reads it:
 * shapes, and the counts of `limits` (422 beyond them). The memo's contents
 * are then trusted only once its checksum matches.
 *
 * @example
 * ```ts
 * const payload = updatePayloadSchema(config.limits).parse(request.body())
 * ```
 */
export function updatePayloadSchema(limits: CompConfig['limits']) {
  return z.object({
    fingerprint: z.object({
      id: z.string().regex(/^[A-Za-z0-9]{1,40}$/, 'The fingerprint id is not valid.'),
      name: z.string().min(1).max(200),
    }),
    serverMemo: z.looseObject({
      data: z.record(z.string(), z.unknown()),
      errors: z.record(z.string(), z.array(z.string())).default({}),
      checksum: z.string().max(64),
    }),
    updates: z
      .array(z.tuple([z.string().min(1).max(1000), z.unknown()]))
      .max(limits.max_updates, `At most ${limits.max_updates} updates per request.`)
      .default([]),
    calls: z
      .array(z.object({ method: z.string().min(1).max(100), params: z.array(z.unknown()).max(100).default([]) }))
      .max(limits.max_calls, `At most ${limits.max_calls} calls per request.`)
      .default([]),
    island: z.string().max(100).nullable().optional(),
    /** Skip the HTML of this request (a `.renderless` action). */
    renderless: z.boolean().optional(),
  })
}

/** A checked update request. */
export type UpdatePayload = z.output<ReturnType<typeof updatePayloadSchema>>
