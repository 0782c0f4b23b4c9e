import { KilnError } from '../../../../core/index.ts'
import { randomBytes } from 'node:crypto'
import type { Storage } from 'unstorage'

/**
 * Types a temporary file may be shown as (detected from the content): raster
 * images only. SVG is left out on purpose, as it can carry script.
 */
export const PREVIEWABLE: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp'])

/** What a temporary file knows about itself. */
export interface UploadMeta {
  /** The name the browser gave the file. */
  name: string
  /** The type its content shows (see `sniffType`). */
  type: string
  /** The type the browser declared; never trusted. */
  clientType?: string
  /** The extension stored files get, from the detected type (`.png`), or empty. */
  extension?: string
  size: number
  /** Unix milliseconds. */
  createdAt: number
}

/**
 * A file uploaded for a component, kept in the temporary store until the
 * component stores it (or it ages out). In state it travels as a signed
 * reference, so a browser can only point at files it uploaded itself.
 *
 * @example
 * ```ts
 * class Avatar extends Component {
 *   photo: TemporaryUploadedFile | null = null
 *   async save() {
 *     const path = await this.photo!.store('avatars')   // 'avatars/2x9f...k1.png' in the default store
 *   }
 * }
 * ```
 */
export class TemporaryUploadedFile {
  /** The name the browser gave the file. (Own fields, so views can read them.) */
  readonly name: string
  /** The MIME type its content shows (not the browser's word). */
  readonly type: string
  /** Size in bytes. */
  readonly size: number
  /**
   * A signed, expiring address that shows this image to the session that
   * uploaded it, for a preview before the file is stored (an own field, so
   * views can use it: `<img src="{{photo.temporaryUrl}}">`). Throws
   * `E_UPLOAD_NOT_PREVIEWABLE` for anything but a PNG, JPEG, GIF, WebP, AVIF
   * or BMP image (by content; never SVG, which can carry script).
   */
  readonly temporaryUrl: () => string
  /** True when `temporaryUrl()` works for this file (an image by its content, not SVG). */
  readonly isPreviewable: () => boolean

  constructor(
    /** The signed reference that stands for this file in a component's state. */
    readonly reference: string,
    /** The key of the bytes in the temporary store. */
    readonly id: string,
    readonly meta: UploadMeta,
    private readonly temporary: Storage,
    private readonly stores: (name?: string) => Storage,
    previewUrl: () => string = () => '',
  ) {
    this.name = meta.name
    this.type = meta.type
    this.size = meta.size
    this.isPreviewable = () => PREVIEWABLE.has(meta.type)
    this.temporaryUrl = () => {
      if (!this.isPreviewable())
        throw new KilnError(`"${meta.name}" (${meta.type}) has no preview: only PNG, JPEG, GIF, WebP, AVIF and BMP images do.`, {
          code: 'E_UPLOAD_NOT_PREVIEWABLE',
        })
      return previewUrl()
    }
  }

  /** The bytes. @example `const bytes = await photo.contents()` */
  async contents(): Promise<Buffer> {
    const raw = await this.temporary.getItemRaw(this.id)
    if (!raw) throw new KilnError(`The temporary upload "${this.meta.name}" is gone (older than the upload lifetime?).`, { code: 'E_UPLOAD_GONE' })
    return Buffer.from(raw as Uint8Array)
  }

  /**
   * Moves the file into a storage store under `dir` with a random name
   * and the extension of its detected type, never one from the browser's
   * file name (a page uploaded as `me.html` is not stored as `.html`, so a
   * public disk cannot serve it as a page), and returns its key there.
   *
   * @example
   * ```ts
   * const key = await photo.store('avatars', { store: 'public' })
   * ```
   */
  async store(dir = '', options: { store?: string } = {}): Promise<string> {
    return this.storeAs(dir, `${randomBytes(16).toString('base64url')}${this.extension()}`, options)
  }

  /**
   * Moves the file into a storage store under `dir/name`.
   *
   * @example
   * ```ts
   * await photo.storeAs('avatars', `${user.id}.png`)
   * ```
   */
  async storeAs(dir: string, name: string, options: { store?: string } = {}): Promise<string> {
    if (name.includes('/') || name.includes('\\') || name.startsWith('.'))
      throw new KilnError(`"${name}" is not a plain file name.`, { code: 'E_UPLOAD_FILE_NAME' })
    const key = [dir.replace(/^\/+|\/+$/g, ''), name].filter(Boolean).join('/')
    if (key.split('/').includes('..')) throw new KilnError(`"${key}" leaves its folder.`, { code: 'E_UPLOAD_FILE_NAME' })
    await this.stores(options.store).setItemRaw(key.replaceAll('/', ':'), await this.contents())
    await this.delete()
    return key
  }

  /** The extension of the detected type, with its dot, or empty. @example `photo.extension() // '.png'` */
  extension(): string {
    const extension = this.meta.extension ?? ''
    return /^\.[a-z0-9]{1,10}$/.test(extension) ? extension : ''
  }

  /** Removes the temporary file now. @example `await photo.delete()` */
  async delete(): Promise<void> {
    await this.temporary.removeItem(this.id)
    await this.temporary.removeItem(`${this.id}.json`)
  }

  /** What JSON (and so a broadcast or a view's `json`) shows: name, type and size. */
  toJSON(): { name: string; type: string; size: number } {
    return { name: this.meta.name, type: this.meta.type, size: this.meta.size }
  }
}
