import { HttpException, type HandlerFunction } from '../../../../core/index.ts'
import type { CompServices } from '../../lifecycle/component-hook.ts'
import { uploadStoreOf } from './upload-store.ts'
import { PREVIEWABLE } from './temporary-uploaded-file.ts'

/**
 * `GET /comp/upload/preview`: the image behind a `temporaryUrl()`, for a
 * preview before the component stores the file. The address is signed and
 * expires (`uploads.preview_ttl_minutes`); it names the session that
 * uploaded the file, and any other session gets a 403. Only raster images
 * detected from the content are shown (never SVG, which can carry script),
 * with their detected type, `nosniff`, `inline` and a sandboxing CSP, so
 * the bytes can never run as a page. A file that is gone, or is not such
 * an image, is a 404.
 *
 * @example
 * ```ts
 * Route.get('/comp/upload/preview', previewHandler(services)).middleware(['signed:relative', 'web'])
 * ```
 */
export function previewHandler(services: CompServices): HandlerFunction {
  return async (ctx) => {
    const query = ctx.request.url.searchParams
    if (!services.binding.matches(ctx, query.get('s'))) throw new HttpException(403, 'This preview belongs to another session.')
    const preview = await uploadStoreOf(services.app).previewOf(query.get('f') ?? '')
    if (!preview || !PREVIEWABLE.has(preview.type)) throw new HttpException(404, 'There is no preview of this file.')
    return new Response(Uint8Array.from(preview.bytes), {
      headers: {
        'content-type': preview.type,
        'content-length': String(preview.bytes.byteLength),
        'content-disposition': 'inline',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
        // Bound to one session: no shared cache may keep it.
        'cache-control': 'private, no-store',
      },
    })
  }
}
