import { z } from 'zod'
import type { UploadRules } from './upload-decorator.ts'
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

/**
 * The rule `validate()` checks an `@upload()` property with, made from its
 * declaration so the rules are written once: a file (a list of at least one
 * for `multiple`) within its `maxKb` and `mimes`; with `required: false`,
 * also none.
 *
 * @example
 * ```ts
 * declaredUploadRule({ maxKb: 1024, mimes: ['image/*'] }).safeParse(null).success // false: Choose a file.
 * ```
 */
export function declaredUploadRule(rules: UploadRules): z.ZodType {
  const file = uploadRule({ maxKb: rules.maxKb, mimes: rules.mimes && rules.mimes.length > 0 ? rules.mimes : undefined })
  const required = rules.required !== false
  if (rules.multiple) return required ? z.array(file).min(1, 'Choose a file.') : z.array(file)
  return required ? file : file.nullable()
}
