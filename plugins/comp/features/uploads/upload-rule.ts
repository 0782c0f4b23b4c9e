import { z } from 'zod'
import { TemporaryUploadedFile } from './temporary-uploaded-file.ts'

/**
 * A zod rule for an uploaded file property, for a component's `rules`:
 * required, at most `maxKb`, and one of `mimes` (`image/*` works).
 *
 * @example
 * ```ts
 * static rules = z.object({ photo: uploadRule({ maxKb: 1024, mimes: ['image/*'] }) })
 * ```
 */
export function uploadRule(options: { maxKb?: number; mimes?: string[] } = {}) {
  return z
    .custom<TemporaryUploadedFile>((value) => value instanceof TemporaryUploadedFile, { message: 'Choose a file.' })
    .superRefine((file, ctx) => {
      if (options.maxKb !== undefined && file.size > options.maxKb * 1024)
        ctx.addIssue({ code: 'custom', message: `The file may not be larger than ${options.maxKb} KB.` })
      if (options.mimes && !options.mimes.some((mime) => (mime.endsWith('/*') ? file.type.startsWith(mime.slice(0, -1)) : file.type === mime))) {
        ctx.addIssue({ code: 'custom', message: `The file must be one of: ${options.mimes.join(', ')}.` })
      }
    })
}
