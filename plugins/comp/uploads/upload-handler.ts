import { HttpException, type HandlerFunction } from '../../../core/index.ts'
import type { ComponentManager } from '../component-manager.ts'

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
