import { HttpException } from '../../../../core/index.ts'
import { accepts } from './upload-rules.ts'

/** What a file's content says it is, and the extension it is stored with. */
export interface SniffedType {
  mime: string
  /** With its dot (`.png`), or empty when nothing is known. */
  extension: string
}

/** Types without a signature: taken on the browser's word only when a rule names them exactly, and only for text. */
const TEXT_TYPES: Record<string, string> = { 'text/plain': '.txt', 'text/csv': '.csv' }

/**
 * The type of an uploaded file from its content (file-type reads its
 * magic numbers), never from what the browser declared: an HTML page sent
 * as `image/png` is not an image. A file whose content has no signature is
 * text only when the rules name `text/plain` or `text/csv` exactly, the
 * browser declared that type and the bytes are UTF-8 without NUL; with no
 * rules at all it is `application/octet-stream` with no extension (so a
 * public disk never serves it as a page). Anything else is a 422 naming the
 * accepted types.
 *
 * @example
 * ```ts
 * const { mime, extension } = await sniffType(bytes, 'image/png', ['image/*'], 'me.png') // { mime: 'image/png', extension: '.png' }
 * ```
 */
export async function sniffType(bytes: Uint8Array, declared: string, mimes: readonly string[], name: string): Promise<SniffedType> {
  // file-type and its tokenizers are some 35 modules: loaded by the first upload, not when the app boots.
  const { fileTypeFromBuffer } = await import('file-type')
  const detected = await fileTypeFromBuffer(bytes)
  const refuse = () => new HttpException(422, `The content of "${name}" is not one of: ${mimes.join(', ')}.`)
  if (detected) {
    if (mimes.length > 0 && !accepts(mimes, detected.mime)) throw refuse()
    return { mime: detected.mime, extension: `.${detected.ext}` }
  }
  const text = declared.toLowerCase().split(';')[0]!.trim()
  if (TEXT_TYPES[text] && mimes.some((type) => type.toLowerCase() === text) && isText(bytes)) return { mime: text, extension: TEXT_TYPES[text] }
  if (mimes.length > 0) throw refuse()
  return { mime: 'application/octet-stream', extension: '' }
}

function isText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return true
  } catch {
    return false
  }
}
