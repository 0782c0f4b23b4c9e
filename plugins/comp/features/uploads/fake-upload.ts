import { extname } from 'node:path'
import { KilnError } from '../../../../core/index.ts'
import { PREPARE_TEST_VALUE, type PreparedTestValue, type TestValueContext } from '../../testing/test-values.ts'
import { pngBytes } from './fake-png.ts'

// The type a browser declares for a name, and the first bytes that make file-type see that type in the content.
const KINDS: Record<string, { type: string; start: () => Uint8Array }> = {
  '.png': { type: 'image/png', start: () => pngBytes(1, 1) },
  '.jpg': { type: 'image/jpeg', start: () => Uint8Array.of(0xff, 0xd8, 0xff, 0xe0) },
  '.jpeg': { type: 'image/jpeg', start: () => Uint8Array.of(0xff, 0xd8, 0xff, 0xe0) },
  '.gif': { type: 'image/gif', start: () => new TextEncoder().encode('GIF89a') },
  '.pdf': { type: 'application/pdf', start: () => new TextEncoder().encode('%PDF-1.4\n') },
  '.txt': { type: 'text/plain', start: () => new Uint8Array() },
  '.csv': { type: 'text/csv', start: () => new Uint8Array() },
}

/**
 * A file a test sets into an `@upload()` property (`set('photo', file)`):
 * it goes the way the browser's upload goes, through `$upload` (the
 * property's rules on what is described), `POST /comp/upload` (the rules on
 * the content, the temporary store) and then the property set to its
 * reference. Made by {@link UploadedFile.fake}.
 *
 * @example
 * ```ts
 * await testComponent(app, 'avatar').set('photo', UploadedFile.fake().image('me.png', 100, 100)).call('save')
 * ```
 */
export class FakeFile implements PreparedTestValue {
  /** @example `new FakeFile('a.txt', 'text/plain', new TextEncoder().encode('hello'))` */
  constructor(
    readonly name: string,
    readonly type: string,
    readonly bytes: Uint8Array,
  ) {}

  /** Its size in bytes. @example `file.size // 102400` */
  get size(): number {
    return this.bytes.byteLength
  }

  /** Uploads it (with the other files of a list set at once), as the browser's client does. @example `await file[PREPARE_TEST_VALUE](context, [file], false)` */
  async [PREPARE_TEST_VALUE](context: TestValueContext, values: readonly unknown[], multiple: boolean): Promise<{ value: unknown } | undefined> {
    const files = values as readonly FakeFile[]
    const effects = await context.call(
      '$upload',
      context.path,
      files.map((file) => ({ name: file.name, type: file.type, size: file.size })),
    )
    // Refused by the property's rules (its message is in the errors), or the update itself was refused.
    const target = (effects as { upload?: { url: string } } | undefined)?.upload
    if (!target) return undefined
    const form = new FormData()
    for (const file of files) form.append('files', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name)
    const res = await context.post(target.url, form)
    const body = (await res.json()) as { references?: string[]; message?: string; errors?: Record<string, string[]> }
    if (res.status !== 200 || !body.references) {
      const message = body.message ?? `The upload failed (${res.status}).`
      context.refuse(res.status, message, body.errors ?? { [context.path]: [message] })
      return undefined
    }
    return { value: multiple ? body.references : body.references[0] }
  }
}

/** Makes fake files for a test (`UploadedFile.fake()`). */
export class FakeFileFactory {
  /**
   * A real PNG of that many pixels (one grey colour), as Laravel's
   * `UploadedFile::fake()->image()`: its content is sniffed as `image/png`.
   * Only PNG: a name ending otherwise is refused (`create('a.jpg', kb)`
   * makes a file that only starts like a JPEG).
   *
   * @example `UploadedFile.fake().image('avatar.png', 100, 100)`
   */
  image(name = 'image.png', width = 10, height = 10): FakeFile {
    const extension = extname(name).toLowerCase()
    if (extension !== '.png')
      throw new KilnError(`UploadedFile.fake().image() makes PNG images: name it .png, not "${name}". For other types, create(name, kilobytes).`, {
        code: 'E_COMP_TEST',
      })
    return new FakeFile(name, 'image/png', pngBytes(width, height))
  }

  /**
   * A file of `kilobytes` KB, as Laravel's `UploadedFile::fake()->create()`:
   * its declared type from its name (or `type`), and content that starts as
   * that type's does (`%PDF` for a PDF), so the upload's sniffing sees it;
   * a `.txt` or `.csv` is text. Other names hold zero bytes, which no
   * `mimes` rule but an empty one accepts.
   *
   * @example `UploadedFile.fake().create('invoice.pdf', 120)`
   */
  create(name: string, kilobytes = 0, type?: string): FakeFile {
    if (!Number.isFinite(kilobytes) || kilobytes < 0)
      throw new KilnError(`A fake file's size is a number of kilobytes, not ${kilobytes}.`, { code: 'E_COMP_TEST' })
    const kind = KINDS[extname(name).toLowerCase()]
    const start = kind?.start() ?? new Uint8Array()
    const text = kind !== undefined && kind.type.startsWith('text/')
    const bytes = new Uint8Array(Math.max(Math.round(kilobytes * 1024), start.byteLength)).fill(text ? 0x61 : kind?.type === 'application/pdf' ? 0x20 : 0)
    bytes.set(start)
    return new FakeFile(name, type ?? kind?.type ?? 'application/octet-stream', bytes)
  }
}

/**
 * Files for a component test, in Laravel's words: `UploadedFile.fake()`
 * makes {@link FakeFile}s to set into `@upload()` properties.
 *
 * @example
 * ```ts
 * import { UploadedFile, testComponent } from 'kiln-framework/comp'
 * await testComponent(app, 'avatar').set('photo', UploadedFile.fake().image('me.png', 100, 100)).call('save').assertHasNoErrors()
 * ```
 */
export const UploadedFile = {
  /** The factory of fake files. @example `UploadedFile.fake().create('a.pdf', 50)` */
  fake(): FakeFileFactory {
    return new FakeFileFactory()
  },
}
