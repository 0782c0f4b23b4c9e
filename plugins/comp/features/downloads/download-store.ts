import { randomBytes } from 'node:crypto'
import type { Storage } from 'unstorage'
import { KilnError, type Application, type StorageManager } from '../../../../core/index.ts'
import type { CompConfig } from '../../comp-config.ts'
import type { DownloadContent, FileDownload } from './download-source.ts'

const PREFIX = 'comp-downloads'
const TOKEN = /^[A-Za-z0-9_-]{22}$/

/** What a download's address points at, kept in the store until it is fetched or expires. */
export type DownloadRecord = (
  { kind: 'path'; path: string } | { kind: 'store'; store: string | undefined; key: string } | { kind: 'content'; size: number }
) & { name: string; contentType: string; createdAt: number }

/**
 * The downloads actions asked for, waiting for the browser to fetch them:
 * a record per download in the configured store (`downloads.store`, `tmp`
 * by default), under a random token, so the address names no path and
 * another process can answer the fetch. A file on disk or in a store stays
 * where it is and is read only when fetched; made content is kept beside its
 * record, once, and removed when it is taken. Records older than
 * `downloads.url_ttl_minutes` are swept.
 *
 * @example
 * ```ts
 * const token = await downloads.put({ kind: 'path', path: '/app/storage/app/q3.csv', name: 'q3.csv', contentType: 'text/csv' })
 * const record = await downloads.find(token)
 * ```
 */
export class DownloadStore {
  private lastSweep = 0

  constructor(
    private readonly storage: StorageManager,
    readonly config: CompConfig['downloads'],
  ) {}

  /** Keeps what the browser is to fetch; returns its token. @example `const token = await downloads.put(download)` */
  async put(download: FileDownload): Promise<string> {
    await this.sweep(true)
    const token = randomBytes(16).toString('base64url')
    const base = { name: download.name, contentType: download.contentType, createdAt: Date.now() }
    let record: DownloadRecord
    if (download.kind === 'content') {
      const bytes = await collect(download.content, this.config.max_kb)
      await this.temporary().setItemRaw(`${PREFIX}:${token}`, bytes)
      record = { kind: 'content', size: bytes.byteLength, ...base }
    } else if (download.kind === 'path') record = { kind: 'path', path: download.path, ...base }
    else record = { kind: 'store', store: download.store, key: download.key, ...base }
    await this.temporary().setItem(`${PREFIX}:${token}.json`, record)
    return token
  }

  /** The record of a token, while it has not expired. @example `const record = await downloads.find(query.get('d') ?? '')` */
  async find(token: string): Promise<DownloadRecord | undefined> {
    if (!TOKEN.test(token)) return undefined
    const record = (await this.temporary().getItem(`${PREFIX}:${token}.json`)) as DownloadRecord | null
    if (!record || typeof record !== 'object' || typeof record.createdAt !== 'number') return undefined
    return this.expired(record) ? undefined : record
  }

  /** Made content of a token, removed as it is taken (with its record). @example `const bytes = await downloads.take(token)` */
  async take(token: string): Promise<Uint8Array | undefined> {
    const raw = (await this.temporary().getItemRaw(`${PREFIX}:${token}`)) as Uint8Array | null
    await this.forget(token)
    return raw ?? undefined
  }

  /** Deletes expired records and their content; at most once a minute when `throttled`. @example `await downloads.sweep()` */
  async sweep(throttled = false): Promise<number> {
    const now = Date.now()
    if (throttled && now - this.lastSweep < 60_000) return 0
    this.lastSweep = now
    let removed = 0
    for (const key of await this.temporary().getKeys(PREFIX)) {
      if (!key.endsWith('.json')) continue
      const record = (await this.temporary().getItem(key)) as DownloadRecord | null
      if (record && typeof record.createdAt === 'number' && !this.expired(record)) continue
      await this.forget(key.slice(PREFIX.length + 1, -'.json'.length))
      removed++
    }
    return removed
  }

  private async forget(token: string): Promise<void> {
    await this.temporary().removeItem(`${PREFIX}:${token}`)
    await this.temporary().removeItem(`${PREFIX}:${token}.json`)
  }

  private expired(record: DownloadRecord): boolean {
    return record.createdAt + this.config.url_ttl_minutes * 60_000 < Date.now()
  }

  private temporary(): Storage {
    return this.storage.store(this.config.store)
  }
}

/** Made content as bytes, read chunk by chunk and refused past `maxKb`, so a runaway stream cannot fill the memory. */
async function collect(content: DownloadContent, maxKb: number): Promise<Uint8Array> {
  const max = maxKb * 1024
  const tooLarge = () =>
    new KilnError(`This download is larger than config/comp.ts \`downloads.max_kb\` (${maxKb} KB).`, {
      code: 'E_COMP_DOWNLOAD_SIZE',
      hint: 'Write it to a file under `downloads.roots` and send it with this.download(path), which streams it, or raise the limit.',
    })
  if (typeof content === 'string') content = new TextEncoder().encode(content)
  if (content instanceof ArrayBuffer) content = new Uint8Array(content)
  if (content instanceof Blob) content = new Uint8Array(await content.arrayBuffer())
  if (content instanceof Uint8Array) {
    if (content.byteLength > max) throw tooLarge()
    return content
  }
  const chunks: Uint8Array[] = []
  let size = 0
  const encoder = new TextEncoder()
  for await (const chunk of content as AsyncIterable<Uint8Array | string>) {
    const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk
    size += bytes.byteLength
    if (size > max) throw tooLarge()
    chunks.push(bytes)
  }
  return Buffer.concat(chunks)
}

const stores = new WeakMap<Application, DownloadStore>()

/** @internal keeps the app's download store (made when the plugin registers). */
export function keepDownloadStore(app: Application, store: DownloadStore): void {
  stores.set(app, store)
}

/**
 * The app's download store.
 *
 * @example
 * ```ts
 * const token = await downloadStoreOf(app).put(download)
 * ```
 */
export function downloadStoreOf(app: Application): DownloadStore {
  const store = stores.get(app)
  if (!store) throw new KilnError('The components plugin has no download store here.', { code: 'E_COMP_OUTSIDE_LIFECYCLE' })
  return store
}
