import { HttpException, Limit, type HandlerFunction, type RateLimiters } from '../../core/index.ts'
import type { ComponentManager } from './component-manager.ts'
import { updatePayloadSchema } from './update-payload.ts'
import { updateComponent } from './update-component.ts'

/**
 * `POST /comp/update`. It runs behind `signed:relative` (403 for a bare,
 * bad or expired address) and the `web` group (session, 419 without the
 * CSRF token). Then: the body's shape and limits (422), the snapshot's
 * checksum (403 when tampered; an address that keeps failing gets 429), and
 * the update itself.
 *
 * @example
 * ```ts
 * Route.post('/comp/update', updateHandler(manager)).middleware(['signed:relative', 'web'])
 * ```
 */
export function updateHandler(manager: ComponentManager): HandlerFunction {
  const schema = updatePayloadSchema(manager.config.limits)
  return async (ctx) => {
    const payload = schema.parse(ctx.request.body())
    if (!manager.checksums.verify(payload.fingerprint, payload.serverMemo)) {
      const limit = Limit.perMinute(manager.config.limits.checksum_failures_per_minute).by(ctx.request.ip() ?? 'unknown')
      const { allowed, retryAfter } = await ctx.app.service<RateLimiters>('limiters').attempt('comp-checksum', limit)
      if (!allowed) throw new HttpException(429, 'Too many tampered component snapshots from this address.', { headers: { 'retry-after': String(retryAfter) } })
      throw new HttpException(403, 'The component snapshot does not match its checksum: it was changed outside the server.')
    }
    return updateComponent(manager, payload, ctx)
  }
}

/**
 * `POST /comp/upload`: the files of a `$upload`, to a signed address that
 * the update answered with. Each file is checked (size, type) and kept in
 * the temporary store; the answer holds their references, which the browser
 * then sets on the property. Old temporary files are swept (at most once a
 * minute).
 *
 * @example
 * ```ts
 * Route.post('/comp/upload', uploadHandler(manager)).middleware(['signed:relative', 'web'])
 * ```
 */
export function uploadHandler(manager: ComponentManager): HandlerFunction {
  return async (ctx) => {
    const files = ctx.request.files('files')
    if (files.length === 0) throw new HttpException(422, 'Send the files in a multipart field named "files".')
    if (files.length > 20) throw new HttpException(422, 'At most 20 files per upload.')
    const stored = []
    for (const file of files) stored.push(await manager.uploads.put(file))
    void manager.uploads.sweep(true).catch((error: unknown) => ctx.app.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'comp: could not sweep old uploads'))
    return { references: stored.map((file) => file.reference), files: stored.map((file) => file.toJSON()) }
  }
}
