import type { ComponentHook } from '../../lifecycle/component-hook.ts'
import { removeUpload } from './remove-upload.ts'
import { startUpload } from './start-upload.ts'

/**
 * File uploads: `$upload(property, files)` checks the files against the
 * property's `@upload()` rules and answers with the address to send them
 * to (the `upload` effect); the files then go to `POST /comp/upload`
 * (`uploadHandler`), and their references are set on the property.
 * `$removeUpload(property, file)` takes one file out again and deletes it.
 *
 * @example
 * ```ts
 * const features = [uploads, ...]
 * ```
 */
export const uploads: ComponentHook = {
  name: 'uploads',
  calls: {
    async $upload(c, params) {
      const upload = await startUpload(c, params)
      if (upload) c.effects.upload = upload
      // Refused before sending: the browser asked for no render, but the view's {{error}} must show why, as $errors does.
      else c.renderAnyway = true
    },
    $removeUpload: removeUpload,
  },
}
