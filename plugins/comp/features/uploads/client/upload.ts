import type { BootConfig } from '../../../client/alpine.ts'
import { csrfToken } from '../../../client/config.ts'
import { bindModel } from '../../../client/directives/model.ts'
import type { UpdateResponse } from '../../../protocol/update-response.ts'
import { wireProperty } from '../../../client/wire.ts'

/** What an upload needs of a component in the page (a narrow view of `CompComponent`). */
export interface UploadTarget {
  readonly el: Element
  readonly config: BootConfig
  readonly errors: { bag: Record<string, string[]> }
  call(method: string, params: unknown[], options: { renderless?: boolean }): Promise<unknown>
  set(path: string, value: unknown, live?: boolean): Promise<unknown>
}

type Progress = (progress: number) => void

// `$wire.$upload(path, files, onProgress)` and its kin, and `wire:model` on a file input, which uploads the chosen files.
wireProperty(
  '$upload',
  (component) => (path: string, files: File | File[] | FileList, onProgress?: Progress) => upload(component, path, files, undefined, onProgress),
)
wireProperty(
  '$uploadMultiple',
  (component) => (path: string, files: File[] | FileList, onProgress?: Progress) => upload(component, path, files, undefined, onProgress, true),
)
wireProperty('$cancelUpload', (component) => (path: string) => cancelUpload(component, path))
wireProperty('$removeUpload', (component) => (path: string, file: string) => component.call('$removeUpload', [path, file]))
bindModel((component, el, path) => {
  if (!(el instanceof HTMLInputElement) || el.type !== 'file') return false
  el.addEventListener('change', () => void (el.files && upload(component, path, el.files, el)))
  return true
})

/** Uploads in progress, by component and property, so `$cancelUpload` can stop them. */
const running = new WeakMap<UploadTarget, Map<string, AbortController>>()

/**
 * Uploads files into a property: the component first checks them (`$upload`
 * answers with a signed address, or a validation error for a file too large
 * or of the wrong type), the files go to that address with progress events,
 * and the references they come back as are set on the property, which the
 * server turns into `TemporaryUploadedFile`s. A file refused on either side
 * (too large, a type the property does not take, its content not what it
 * claims) shows in `$errors` for the property (and `photos.0`-style keys for
 * a `multiple` one), like any validation error. A new upload into the same
 * property cancels one still in progress.
 *
 * Events on `el` (bubbling): `comp-upload-start`, `comp-upload-progress`
 * (`detail.progress`, 0 to 100), `comp-upload-finish`, `comp-upload-error`,
 * `comp-upload-cancel`.
 */
export async function upload(
  component: UploadTarget,
  path: string,
  input: File | File[] | FileList,
  el?: Element,
  onProgress?: (progress: number) => void,
  several?: boolean,
): Promise<void> {
  const files = input instanceof File ? [input] : [...input]
  const multiple = several ?? (!(input instanceof File) && (el instanceof HTMLInputElement ? el.multiple : files.length > 1))
  const emit = (name: string, detail: Record<string, unknown> = {}) =>
    (el ?? component.el).dispatchEvent(new CustomEvent(name, { detail: { property: path, ...detail }, bubbles: true }))
  if (files.length === 0) return
  const inProgress = running.get(component) ?? new Map<string, AbortController>()
  running.set(component, inProgress)
  inProgress.get(path)?.abort()
  const controller = new AbortController()
  inProgress.set(path, controller)
  emit('comp-upload-start')
  try {
    // `$upload` is not a `@json()` action: its promise resolves with the answer.
    const started = (await component.call(
      '$upload',
      [path, files.map((file) => ({ name: file.name, size: file.size, type: file.type || 'application/octet-stream' }))],
      { renderless: true },
    )) as UpdateResponse | undefined
    const target = started?.effects.upload
    // Refused by the property's rules: the message is already in $errors.
    if (!target) throw new Error(component.errors.bag[path]?.[0] ?? 'The server did not accept the files.')
    const references = await post(component, path, target.url, files, controller.signal, (progress) => {
      emit('comp-upload-progress', { progress })
      onProgress?.(progress)
    })
    await component.set(path, multiple ? references : references[0], true)
    emit('comp-upload-finish')
  } catch (error) {
    emit(controller.signal.aborted ? 'comp-upload-cancel' : 'comp-upload-error', { message: (error as Error).message })
  } finally {
    if (inProgress.get(path) === controller) inProgress.delete(path)
  }
}

/**
 * `$wire.$cancelUpload(path)`: stops an upload into `path` that is still in
 * progress; the property keeps its value and `comp-upload-cancel` is raised.
 */
export function cancelUpload(component: UploadTarget, path: string): void {
  running.get(component)?.get(path)?.abort()
}

function post(component: UploadTarget, path: string, url: string, files: File[], signal: AbortSignal, progress: (percent: number) => void): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest()
    if (signal.aborted) return reject(new Error('The upload was cancelled.'))
    signal.addEventListener('abort', () => request.abort())
    request.open('POST', url)
    request.setRequestHeader('accept', 'application/json')
    const token = csrfToken(component.config)
    if (token) request.setRequestHeader('x-csrf-token', token)
    request.upload.addEventListener('progress', (event) => event.lengthComputable && progress(Math.round((event.loaded / event.total) * 100)))
    request.addEventListener('load', () => {
      if (request.status !== 200) {
        const body = answer(request)
        const message = body.message ?? `The upload failed (${request.status}).`
        // Refused (too large, not what it claims, used already): the user sees why, beside the property's other messages.
        if (request.status < 500) component.errors.bag = { ...component.errors.bag, ...(body.errors ?? { [path]: [message] }) }
        return reject(new Error(message))
      }
      progress(100)
      resolve((JSON.parse(request.responseText) as { references: string[] }).references)
    })
    request.addEventListener('error', () => reject(new Error('The upload failed (network).')))
    request.addEventListener('abort', () => reject(new Error('The upload was cancelled.')))
    const form = new FormData()
    for (const file of files) form.append('files', file, file.name)
    request.send(form)
  })
}

/** The `message` and `errors` of a JSON error answer, as far as it has them. */
function answer(request: XMLHttpRequest): { message?: string; errors?: Record<string, string[]> } {
  try {
    const body = JSON.parse(request.responseText) as { message?: unknown; errors?: unknown }
    return {
      message: typeof body.message === 'string' ? body.message : undefined,
      errors: body.errors && typeof body.errors === 'object' ? (body.errors as Record<string, string[]>) : undefined,
    }
  } catch {
    return {}
  }
}
