import { HttpException } from '../../../../core/index.ts'
import type { ComponentContext } from '../../lifecycle/component-hook.ts'
import { TemporaryUploadedFile } from './temporary-uploaded-file.ts'
import { uploadRulesOf } from './upload-rules.ts'

/**
 * `$removeUpload(property, file)`: takes one temporary file out of an
 * `@upload()` property (out of the array of a `multiple` one; a single
 * one becomes `null`) and deletes it from the temporary store. `file` is
 * its reference (what the property holds in the browser) or its name. A
 * property without `@upload()` is 403; a file the property does not hold
 * is 422.
 *
 * @example
 * ```ts
 * await removeUpload(c, ['photos', 'comp-upload:...'])
 * ```
 */
export async function removeUpload(c: ComponentContext, params: unknown[]): Promise<void> {
  const [property, which] = params
  if (typeof property !== 'string' || typeof which !== 'string')
    throw new HttpException(422, '$removeUpload takes the name of a property and the reference or name of a file.')
  uploadRulesOf(c.Class, property, c.services.config.uploads)
  const holder = c.component as unknown as Record<string, unknown>
  const value = holder[property]
  const files = (Array.isArray(value) ? value : [value]).filter((file): file is TemporaryUploadedFile => file instanceof TemporaryUploadedFile)
  const index = files.findIndex((file) => file.reference === which)
  const found = files[index >= 0 ? index : files.findIndex((file) => file.name === which)]
  if (!found) throw new HttpException(422, `${property.slice(0, 100)} holds no such file.`)
  await found.delete()
  holder[property] = Array.isArray(value) ? value.filter((file) => file !== found) : null
}
