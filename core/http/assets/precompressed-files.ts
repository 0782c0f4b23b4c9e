import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { extname } from 'node:path'
import { compressBytes, type Bytes, type Encoding } from '../compression/encoding.ts'

// Files served often and changed rarely: compress once, as small as the coding allows.
const STATIC_LEVELS = { brotliQuality: 11, gzipLevel: 9 }
// Big files would take seconds at the top level and pin much memory; they go out as they are.
const MAX_FILE_BYTES = 8 * 1024 * 1024
const MAX_CACHED_BYTES = 64 * 1024 * 1024
const TEXT_EXTENSIONS = new Set([
  '.js',
  '.mjs',
  '.cjs',
  '.css',
  '.html',
  '.htm',
  '.json',
  '.map',
  '.txt',
  '.xml',
  '.svg',
  '.md',
  '.csv',
  '.webmanifest',
  '.wasm',
])

/**
 * The content hash of a file: its strong ETag and its `?v=` version.
 *
 * @example
 * ```ts
 * contentHash(await readFile(path)) // '3f9a1c2b7d4e5f60'
 * ```
 */
export function contentHash(content: Uint8Array): string {
  return createHash('sha256').update(content).digest('base64url').slice(0, 16)
}

interface Entry {
  etag: string
  bodies: Partial<Record<Encoding, Promise<Bytes>>>
  bytes: number
}

/**
 * The brotli and gzip versions of static files, made on first request and
 * kept in memory per file version (its content hash), so each file is
 * compressed once per coding until it changes. Only text files between
 * `threshold` and 8 MB qualify; the cache holds at most 64 MB and drops
 * the oldest files first.
 *
 * @example
 * ```ts
 * const files = new PrecompressedFiles(1024)
 * if (files.qualifies(path, size)) body = await files.get(path, etag, 'br')
 * ```
 */
export class PrecompressedFiles {
  private readonly entries = new Map<string, Entry>()
  private bytes = 0

  constructor(private readonly threshold: number) {}

  /** Whether a file of this name and size is worth compressing. @example `files.qualifies('/x/app.js', 40_000)` */
  qualifies(path: string, size: number): boolean {
    return size >= this.threshold && size <= MAX_FILE_BYTES && TEXT_EXTENSIONS.has(extname(path).toLowerCase())
  }

  /**
   * The compressed bytes of the file version named by `etag`.
   *
   * @example
   * ```ts
   * const body = await files.get('/app/public/app.js', '"3f9a1c2b"', 'gzip')
   * ```
   */
  get(path: string, etag: string, encoding: Encoding): Promise<Bytes> {
    let entry = this.entries.get(path)
    if (!entry || entry.etag !== etag) {
      if (entry) this.drop(path, entry)
      entry = { etag, bodies: {}, bytes: 0 }
      this.entries.set(path, entry)
    }
    const cached = entry.bodies[encoding]
    if (cached) return cached
    const made = readFile(path).then((raw) => {
      // The file changed since its ETag was computed: never store new bytes under the old version.
      if (`"${contentHash(raw)}"` !== etag) throw new Error(`${path} changed while being compressed`)
      return compressBytes(raw, encoding, STATIC_LEVELS)
    })
    const current = entry
    entry.bodies[encoding] = made
    made.then(
      (body) => this.account(path, current, body.byteLength),
      () => delete current.bodies[encoding],
    )
    return made
  }

  private account(path: string, entry: Entry, bytes: number): void {
    if (this.entries.get(path) !== entry) return
    entry.bytes += bytes
    this.bytes += bytes
    for (const [oldPath, old] of this.entries) {
      if (this.bytes <= MAX_CACHED_BYTES || old === entry) break
      this.drop(oldPath, old)
    }
  }

  private drop(path: string, entry: Entry): void {
    this.entries.delete(path)
    this.bytes -= entry.bytes
  }
}
