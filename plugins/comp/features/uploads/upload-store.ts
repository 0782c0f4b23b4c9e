import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Storage } from 'unstorage'
import { HttpException, storeScope, type Application, type ProcessState, type StorageManager } from '../../../../core/index.ts'
import type { CompConfig } from '../../comp-config.ts'
import type { CompServices } from '../../lifecycle/component-hook.ts'
import type { StateContext } from '../../state/state.ts'
import { sniffType } from './sniff-type.ts'
import { checkDescribedFile, type EffectiveUploadRules } from './upload-rules.ts'
import { TemporaryUploadedFile, type UploadMeta } from './temporary-uploaded-file.ts'

const PREFIX = 'comp-uploads'
const REFERENCE = /^comp-upload:([A-Za-z0-9_-]{22}):([a-f0-9]{64})$/

/**
 * What the temporary store of uploads is to several processes: a file sent
 * to one process is saved by the next request, which another may answer.
 *
 * @example
 * ```ts
 * app.service('processState').declare(uploadStoreState('tmp', 'fs'))
 * ```
 */
export function uploadStoreState(store: string, driver: string | undefined): ProcessState {
  return {
    what: `component uploads' temporary store (config/storage.ts \`stores.${store}\`, ${driver ?? 'missing'})`,
    scope: storeScope(driver),
    setting: `set its driver to redis or fs (UPLOADS_STORE=redis in the starter), or config/comp.ts \`uploads.store\` to another store`,
  }
}

/**
 * Temporary files of component uploads: stores them in the configured
 * storage store (`uploads.store`, `tmp` by default) after checking size and
 * content type, hands out references signed for the uploading session, opens them again from a reference,
 * and sweeps those older than `uploads.max_age_minutes`.
 *
 * @example
 * ```ts
 * const file = await uploads.put(formFile, rules, tag)
 * const again = await uploads.open(file.reference, tag)
 * ```
 */
export class UploadStore {
  private lastSweep = 0

  constructor(
    private readonly storage: StorageManager,
    private readonly config: CompConfig['uploads'],
    private readonly key: Buffer,
    /** Signs a preview address (`GET /comp/upload/preview`) for a file's token and its session's tag. */
    private readonly signPreview: (params: { f: string; s: string }) => string = () => '',
  ) {}

  /**
   * Checks an uploaded file against the rules of its property (size, and
   * the type its content shows: see `sniffType`) and keeps it; returns it
   * with a reference signed for this session (`sessionTag`), so no other
   * session can point at it.
   *
   * @example
   * ```ts
   * const file = await uploads.put(formFile, rules, manager.binding.tag(ctx))
   * ```
   */
  async put(file: File, rules: EffectiveUploadRules, sessionTag: string): Promise<TemporaryUploadedFile> {
    const declared = file.type || 'application/octet-stream'
    checkDescribedFile({ name: file.name, type: declared, size: file.size }, { ...rules, mimes: [] })
    const bytes = new Uint8Array(await file.arrayBuffer())
    const { mime, extension } = await sniffType(bytes, declared, rules.mimes, file.name)
    const token = randomBytes(16).toString('base64url')
    const id = `${PREFIX}:${token}`
    const meta: UploadMeta = { name: file.name, type: mime, clientType: declared, extension, size: bytes.byteLength, createdAt: Date.now() }
    await this.temporary().setItemRaw(id, bytes)
    await this.temporary().setItem(`${id}.json`, meta)
    return this.file(`comp-upload:${token}:${this.sign(token, sessionTag)}`, token, meta, sessionTag)
  }

  /**
   * The file behind a reference. A reference that was not signed here, or
   * for another session, is 403; one whose file is gone (swept) is 422.
   *
   * @example
   * ```ts
   * const photo = await uploads.open('comp-upload:...', manager.binding.tag(ctx))
   * ```
   */
  async open(reference: string, sessionTag: string): Promise<TemporaryUploadedFile> {
    const match = REFERENCE.exec(reference)
    if (!match || !timingSafeEqual(Buffer.from(this.sign(match[1]!, sessionTag), 'hex'), Buffer.from(match[2]!, 'hex')))
      throw new HttpException(403, 'That upload reference is not valid.')
    const meta = await this.meta(match[1]!)
    if (!meta) throw new HttpException(422, 'The uploaded file has expired; upload it again.')
    return this.file(reference, match[1]!, meta, sessionTag)
  }

  /**
   * The detected type and the bytes of a temporary file by its token (from
   * a preview address, whose signature and session were checked already),
   * or undefined when there is no such file.
   *
   * @example
   * ```ts
   * const preview = await uploads.previewOf(query.get('f') ?? '')
   * ```
   */
  async previewOf(token: string): Promise<{ type: string; bytes: Uint8Array } | undefined> {
    if (!/^[A-Za-z0-9_-]{22}$/.test(token)) return undefined
    const meta = await this.meta(token)
    const raw = meta && ((await this.temporary().getItemRaw(`${PREFIX}:${token}`)) as Uint8Array | null)
    return meta && raw ? { type: meta.type, bytes: raw } : undefined
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

  private async meta(token: string): Promise<UploadMeta | undefined> {
    const meta = (await this.temporary().getItem(`${PREFIX}:${token}.json`)) as UploadMeta | null
    return meta && typeof meta === 'object' && typeof meta.createdAt === 'number' ? meta : undefined
  }

  private file(reference: string, token: string, meta: UploadMeta, sessionTag: string): TemporaryUploadedFile {
    const previewUrl = () => this.signPreview({ f: token, s: sessionTag })
    return new TemporaryUploadedFile(reference, `${PREFIX}:${token}`, meta, this.temporary(), (name) => this.storage.store(name), previewUrl)
  }

  private temporary(): Storage {
    return this.storage.store(this.config.store)
  }

  private sign(token: string, sessionTag: string): string {
    return createHmac('sha256', this.key).update(`comp-upload:${token}:${sessionTag}`).digest('hex')
  }
}

const stores = new WeakMap<Application, { store: UploadStore; services: CompServices }>()

/**
 * Keeps the app's upload store (the uploads feature makes it when the plugin registers).
 *
 * @example
 * ```ts
 * keepUploadStore(app, new UploadStore(storage, config.uploads, key), services)
 * ```
 */
export function keepUploadStore(app: Application, store: UploadStore, services: CompServices): void {
  stores.set(app, { store, services })
}

/**
 * The app's temporary store of uploads (made when the plugin registers).
 *
 * @example
 * ```ts
 * const file = await uploadStoreOf(services.app).put(formFile, rules, services.binding.tag(ctx))
 * ```
 */
export function uploadStoreOf(app: Application): UploadStore {
  const entry = stores.get(app)
  if (!entry) throw new HttpException(500, 'The components plugin has no upload store here.')
  return entry.store
}

/**
 * A file this session uploaded, from its reference (`comp-upload:…`).
 *
 * @example
 * ```ts
 * const photo = await openUpload({ app, ctx }, 'comp-upload:...')
 * ```
 */
export function openUpload(context: StateContext, reference: string): Promise<TemporaryUploadedFile> {
  const entry = stores.get(context.app)
  if (!entry) throw new HttpException(500, 'The components plugin has no upload store here.')
  return entry.store.open(reference, entry.services.binding.tag(context.ctx))
}
