import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Storage } from 'unstorage'
import { HttpException, type StorageManager } from '../../../core/index.ts'
import type { CompConfig } from '../comp-config.ts'
import { TemporaryUploadedFile, type UploadMeta } from './temporary-uploaded-file.ts'

const PREFIX = 'comp-uploads'
const REFERENCE = /^comp-upload:([A-Za-z0-9_-]{22}):([a-f0-9]{64})$/

/**
 * Temporary files of component uploads: stores them in the configured
 * storage store (`uploads.store`, `tmp` by default) after checking size and
 * type, hands out signed references, opens them again from a reference,
 * and sweeps those older than `uploads.max_age_minutes`.
 *
 * @example
 * ```ts
 * const file = await uploads.put(formFile)
 * const again = await uploads.open(file.reference)
 * ```
 */
export class UploadStore {
  private lastSweep = 0

  constructor(
    private readonly storage: StorageManager,
    private readonly config: CompConfig['uploads'],
    private readonly key: Buffer,
  ) {}

  /** Refuses a file over `max_kb` or of a type `mimes` does not list (422). @example `uploads.check('me.png', 'image/png', 1234)` */
  check(name: string, type: string, size: number): void {
    if (!Number.isSafeInteger(size) || size < 0) throw new HttpException(422, `The file "${name}" has no valid size.`)
    if (size > this.config.max_kb * 1024) throw new HttpException(422, `The file "${name}" is larger than ${this.config.max_kb} KB.`)
    if (this.config.mimes.length > 0 && !this.config.mimes.some((accepted) => mimeMatches(accepted, type))) {
      throw new HttpException(422, `The file "${name}" must be one of: ${this.config.mimes.join(', ')}.`)
    }
    if (/[\\/\0]/.test(name) || name.length > 255) throw new HttpException(422, 'The file name is not valid.')
  }

  /** Keeps an uploaded file and returns it, with its reference. @example `await uploads.put(file)` */
  async put(file: File): Promise<TemporaryUploadedFile> {
    const type = file.type || 'application/octet-stream'
    this.check(file.name, type, file.size)
    const token = randomBytes(16).toString('base64url')
    const id = `${PREFIX}:${token}`
    const meta: UploadMeta = { name: file.name, type, size: file.size, createdAt: Date.now() }
    await this.temporary().setItemRaw(id, new Uint8Array(await file.arrayBuffer()))
    await this.temporary().setItem(`${id}.json`, meta)
    return new TemporaryUploadedFile(`comp-upload:${token}:${this.sign(token)}`, id, meta, this.temporary(), (name) => this.storage.store(name))
  }

  /**
   * The file behind a reference. A reference that was not signed here is
   * 403; one whose file is gone (swept) is 422.
   *
   * @example
   * ```ts
   * const photo = await uploads.open('comp-upload:...')
   * ```
   */
  async open(reference: string): Promise<TemporaryUploadedFile> {
    const match = REFERENCE.exec(reference)
    if (!match || !timingSafeEqual(Buffer.from(this.sign(match[1]!), 'hex'), Buffer.from(match[2]!, 'hex'))) throw new HttpException(403, 'That upload reference is not valid.')
    const id = `${PREFIX}:${match[1]}`
    const meta = (await this.temporary().getItem(`${id}.json`)) as UploadMeta | null
    if (!meta || typeof meta !== 'object' || typeof meta.createdAt !== 'number') throw new HttpException(422, 'The uploaded file has expired; upload it again.')
    return new TemporaryUploadedFile(reference, id, meta, this.temporary(), (name) => this.storage.store(name))
  }

  /**
   * Deletes temporary files older than `max_age_minutes`; returns how many.
   * Runs at most once a minute when `throttled`.
   *
   * @example
   * ```ts
   * await uploads.sweep()
   * ```
   */
  async sweep(throttled = false): Promise<number> {
    const now = Date.now()
    if (throttled && now - this.lastSweep < 60_000) return 0
    this.lastSweep = now
    const cutoff = now - this.config.max_age_minutes * 60_000
    let removed = 0
    for (const key of await this.temporary().getKeys(PREFIX)) {
      if (!key.endsWith('.json')) continue
      const meta = (await this.temporary().getItem(key)) as UploadMeta | null
      if (meta && typeof meta.createdAt === 'number' && meta.createdAt > cutoff) continue
      const id = key.slice(0, -'.json'.length)
      await this.temporary().removeItem(id)
      await this.temporary().removeItem(key)
      removed++
    }
    return removed
  }

  private temporary(): Storage {
    return this.storage.store(this.config.store)
  }

  private sign(token: string): string {
    return createHmac('sha256', this.key).update(`comp-upload:${token}`).digest('hex')
  }
}

/** `image/*` matches `image/png`; an extension-less comparison otherwise. */
function mimeMatches(accepted: string, type: string): boolean {
  const [group, sub] = accepted.toLowerCase().split('/')
  const [actualGroup, actualSub] = type.toLowerCase().split(';')[0]!.trim().split('/')
  return group === actualGroup && (sub === '*' || sub === actualSub)
}
