import { HttpException, Limit, type HandlerFunction, type HttpContext } from '../../../../core/index.ts'
import type { CompServices } from '../../lifecycle/component-hook.ts'
import { uploadStoreOf } from './upload-store.ts'
import type { TemporaryUploadedFile } from './temporary-uploaded-file.ts'
import { uploadRulesOf } from './upload-rules.ts'

/**
 * `POST /comp/upload`: the files of a `$upload`, to the signed address the
 * update answered with. The address is this session's, for one property of
 * one component, and works once, for at most the files and kilobytes it was
 * asked for. Each file is checked against the property's rules on its
 * content (size, detected type) and kept in the temporary store; the answer
 * holds references signed for this session, which the browser then sets on
 * the property. A file the rules refuse is 422 with `errors` for the
 * property, which the browser shows in `$errors`. Old temporary files are
 * swept (at most once a minute).
 *
 * @example
 * ```ts
 * Route.post('/comp/upload', uploadHandler(services)).middleware(['signed:relative', 'web'])
 * ```
 */
export function uploadHandler(services: CompServices): HandlerFunction {
  return async (ctx) => {
    const query = ctx.request.url.searchParams
    const property = query.get('p') ?? ''
    if (!services.binding.matches(ctx, query.get('s'))) throw new HttpException(403, 'This upload address belongs to another session: upload the file again.')
    const { Class } = services.resolve(query.get('c') ?? '')
    const rules = uploadRulesOf(Class, property, services.config.uploads)
    await useOnce(ctx, services, query.get('n') ?? '')
    const files = ctx.request.files('files')
    if (files.length === 0) throw new HttpException(422, 'Send the files in a multipart field named "files".')
    if (files.length > Number(query.get('files')))
      throw new HttpException(422, `This address takes ${query.get('files')} file(s); ask for a new one with $upload.`)
    const bytes = files.reduce((sum, file) => sum + file.size, 0)
    if (bytes > Number(query.get('bytes'))) throw new HttpException(422, 'These files are larger than the ones described to $upload.')
    const stored: TemporaryUploadedFile[] = []
    const tag = services.binding.tag(ctx)
    try {
      for (const file of files) stored.push(await uploadStoreOf(services.app).put(file, rules, tag))
    } catch (error) {
      // Nothing of a refused upload stays behind.
      await Promise.all(stored.map((file) => file.delete()))
      if (error instanceof HttpException && error.status === 422) {
        // The refused file's own key too (`photos.1`) when the property takes several.
        const errors = { [property]: [error.message], ...(rules.multiple ? { [`${property}.${stored.length}`]: [error.message] } : {}) }
        throw new HttpException(422, error.message, { body: { errors } })
      }
      throw error
    }
    void uploadStoreOf(services.app)
      .sweep(true)
      .catch((error: unknown) => ctx.app.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'comp: could not sweep old uploads'))
    return { references: stored.map((file) => file.reference), files: stored.map((file) => file.toJSON()) }
  }
}

/** An upload address works once: its nonce is counted in the app's rate limiter store (shared across processes with Redis). */
async function useOnce(ctx: HttpContext, services: CompServices, nonce: string): Promise<void> {
  const minutes = Math.max(1, Math.ceil(services.config.uploads.url_ttl_minutes))
  const { allowed } = await ctx.app.service('limiters').attempt('comp-upload-address-used', Limit.perMinutes(minutes, 1).by(nonce))
  if (!allowed) throw new HttpException(403, 'This upload address was used already: upload the file again.')
}
