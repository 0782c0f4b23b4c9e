import type { BootConfig } from '../../../client/alpine.ts'
import { csrfToken } from '../../../client/config.ts'
import type { UpdateResponse } from '../../../lifecycle/update.ts'

/** What an upload needs of a component in the page (a narrow view of `CompComponent`). */
export interface UploadTarget {
  readonly el: Element
  readonly config: BootConfig
  readonly errors: { bag: Record<string, string[]> }
  call(method: string, params: unknown[], options: { renderless?: boolean }): Promise<UpdateResponse | undefined>
  set(path: string, value: unknown, live?: boolean): Promise<UpdateResponse | undefined>
}

/**
 * Uploads files into a property: the component first checks them (`$upload`
 * answers with a signed address, or a 422 for a file too large or of the
 * wrong type), the files go to that address with progress events, and the
 * references they come back as are set on the property, which the server
 * turns into `TemporaryUploadedFile`s. A file refused on either side
 * (too large, a type the property does not take, its content not what it
 * claims) shows in `$errors` for the property, like any validation error.
 *
 * Events on `el` (bubbling): `comp-upload-start`, `comp-upload-progress`
 * (`detail.progress`, 0 to 100), `comp-upload-finish`, `comp-upload-error`.
 */
export async function upload(
  component: UploadTarget,
  path: string,
  input: File | File[] | FileList,
  el?: Element,
  onProgress?: (progress: number) => void,
): Promise<void> {
  const files = input instanceof File ? [input] : [...input]
  const multiple = !(input instanceof File) && (el instanceof HTMLInputElement ? el.multiple : files.length > 1)
  const emit = (name: string, detail: Record<string, unknown> = {}) =>
    (el ?? component.el).dispatchEvent(new CustomEvent(name, { detail: { property: path, ...detail }, bubbles: true }))
  if (files.length === 0) return
  emit('comp-upload-start')
  try {
    const started = await component.call(
      '$upload',
      [path, files.map((file) => ({ name: file.name, size: file.size, type: file.type || 'application/octet-stream' }))],
      { renderless: true },
    )
    const target = started?.effects.upload
    // Refused by the property's rules: the message is already in $errors.
    if (!target) throw new Error(component.errors.bag[path]?.[0] ?? 'The server did not accept the files.')
    const references = await post(component, path, target.url, files, (progress) => {
      emit('comp-upload-progress', { progress })
      onProgress?.(progress)
    })
    await component.set(path, multiple ? references : references[0], true)
    emit('comp-upload-finish')
  } catch (error) {
    emit('comp-upload-error', { message: (error as Error).message })
  }
}

function post(component: UploadTarget, path: string, url: string, files: File[], progress: (percent: number) => void): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest()
    request.open('POST', url)
    request.setRequestHeader('accept', 'application/json')
    const token = csrfToken(component.config)
    if (token) request.setRequestHeader('x-csrf-token', token)
    request.upload.addEventListener('progress', (event) => event.lengthComputable && progress(Math.round((event.loaded / event.total) * 100)))
    request.addEventListener('load', () => {
      if (request.status !== 200) {
        const message = refusal(request) ?? `The upload failed (${request.status}).`
        // A 422 is about the file: it belongs with the property's other validation messages.
        if (request.status === 422) component.errors.bag = { ...component.errors.bag, [path]: [message] }
        return reject(new Error(message))
      }
      progress(100)
      resolve((JSON.parse(request.responseText) as { references: string[] }).references)
    })
    request.addEventListener('error', () => reject(new Error('The upload failed (network).')))
    const form = new FormData()
    for (const file of files) form.append('files', file, file.name)
    request.send(form)
  })
}

/** The `message` of a JSON error answer, if it has one. */
function refusal(request: XMLHttpRequest): string | undefined {
  try {
    const body = JSON.parse(request.responseText) as { message?: unknown }
    return typeof body.message === 'string' ? body.message : undefined
  } catch {
    return undefined
  }
}
