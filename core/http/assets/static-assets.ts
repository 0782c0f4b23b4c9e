import { readFile, stat } from 'node:fs/promises'
import { isAbsolute, resolve, sep } from 'node:path'
import { serveStatic, type H3Event } from 'h3'
import { KilnError } from '../../support/errors.ts'
import { pickEncoding, type Bytes, type CompressionOptions } from '../compression/encoding.ts'
import { uncompressed } from '../compression/known-body.ts'
import type { HttpContext } from '../pipeline/http-context.ts'
import type { Router } from '../routing/router.ts'
import type { UrlGenerator } from '../routing/url-generator.ts'
import { contentHash, PrecompressedFiles } from './precompressed-files.ts'

/** How a mounted file or folder is served. */
export interface AssetOptions {
  /** `Cache-Control` for a request without the content hash. Default: revalidate every time (the ETag makes that a 304). */
  cacheControl?: string
}

const IMMUTABLE = 'public, max-age=31536000, immutable'
const REVALIDATE = 'public, max-age=0, must-revalidate'
// A content hash in the file name (`app.3f9a1c2b.js`, `chunk-5JQX2VZB.js`) marks a file that never changes.
const HASHED_NAME = /[.-][A-Za-z0-9]{8,}\.[a-z0-9]+$/

interface FileMeta {
  size: number
  mtime: number
  etag: string
  hash: string
}

/**
 * Static files on the app's own server: a single built file
 * (`/comp/comp.js`), a folder (`/vendor/alpine` → `node_modules/alpinejs/dist`)
 * and the app's `public/` folder (served for any GET that no route answers).
 *
 * Every answer carries a strong `ETag` (a hash of the content) and
 * `Last-Modified`, answers `HEAD`, and turns a matching `If-None-Match` into
 * `304`. Text files over the compression threshold go out as brotli or
 * gzip when the client accepts it, compressed once per file version (see
 * {@link PrecompressedFiles}), with an ETag per coding and
 * `Vary: Accept-Encoding`; a `Range` request gets the plain file. A URL made by {@link StaticAssets.url} carries the content hash
 * (`?v=...`), and a request with the current hash, or for a file whose name
 * holds a hash, is cached for a year as `immutable`. h3's `serveStatic` does
 * the HTTP part; this class finds files, keeps them inside their folder and
 * hashes them (once per change of size or mtime).
 *
 * @example
 * ```ts
 * app.assets.file('/comp/comp.js', fileURLToPath(new URL('./dist/comp.js', import.meta.url)))
 * app.assets.directory('/vendor/alpine', join(app.root, 'node_modules/alpinejs/dist'))
 * app.assets.url('/comp/comp.js') // '/comp/comp.js?v=4f1c9a0b2d3e'
 * ```
 */
export class StaticAssets {
  private readonly files = new Map<string, { path: string; options: AssetOptions }>()
  private readonly metas = new Map<string, FileMeta>()
  private publicRoot?: string
  private readonly compressed?: PrecompressedFiles

  constructor(
    private readonly router: Router,
    private readonly urls: UrlGenerator,
    private readonly root: string,
    compression?: Pick<CompressionOptions, 'enabled' | 'threshold'>,
  ) {
    if (compression?.enabled) this.compressed = new PrecompressedFiles(compression.threshold)
  }

  /**
   * Serves one file at a URL path.
   *
   * @example
   * ```ts
   * app.assets.file('/broadcasting/rt.js', join(root, 'packages/rt/dist/rt.js'))
   * ```
   */
  file(urlPath: string, filePath: string, options: AssetOptions = {}): void {
    const path = this.absolute(filePath)
    this.files.set(urlPath, { path, options })
    this.router.get(urlPath, (ctx) => this.serve(ctx, () => path, options))
  }

  /**
   * Whether a file is mounted at this URL path with {@link file}: a plugin
   * can offer what another one serves (the components' echo listeners load
   * the realtime client only when the app serves it) without importing it.
   *
   * @example
   * ```ts
   * app.assets.has('/broadcasting/rt.js') // true with the websocket broadcaster active
   * ```
   */
  has(urlPath: string): boolean {
    return this.files.has(urlPath)
  }

  /**
   * Serves the files of a folder under a URL prefix. Paths that leave the
   * folder (`..`, encoded or not) are 404.
   *
   * @example
   * ```ts
   * app.assets.directory('/docs', join(app.root, 'docs/site'))
   * ```
   */
  directory(urlPrefix: string, dir: string, options: AssetOptions = {}): void {
    const root = this.absolute(dir)
    const prefix = urlPrefix.replace(/\/+$/, '')
    this.router.get(`${prefix}/**`, (ctx) => this.serve(ctx, (id) => inside(root, id.slice(prefix.length)), options))
  }

  /**
   * Serves `dir` (the app's `public/`) for GET and HEAD requests that no
   * route answers. Called by the HTTP provider with `http.public_dir`.
   *
   * @example
   * ```ts
   * app.assets.publicDirectory('public')
   * ```
   */
  publicDirectory(dir: string): void {
    this.publicRoot = this.absolute(dir)
  }

  /**
   * The browser URL of a file mounted with {@link file} (or of a path in
   * `public/`), with `APP_BASE_PATH` and the content hash as `?v=`, so it
   * can be cached as immutable. Unknown files get their plain URL.
   *
   * @example
   * ```ts
   * await app.assets.versionedUrl('/comp/comp.js') // '/sub/comp/comp.js?v=4f1c9a0b2d3e'
   * ```
   */
  async versionedUrl(urlPath: string): Promise<string> {
    const path = this.files.get(urlPath)?.path ?? (this.publicRoot ? inside(this.publicRoot, urlPath) : undefined)
    const meta = path ? await this.meta(path) : undefined
    return this.urls.to(meta ? `${urlPath}?v=${meta.hash}` : urlPath)
  }

  /**
   * Like {@link versionedUrl}, synchronously, for files whose hash is already
   * known (served or asked for once). Falls back to the plain URL.
   *
   * @example
   * ```ts
   * app.assets.url('/comp/comp.js')
   * ```
   */
  url(urlPath: string): string {
    const path = this.files.get(urlPath)?.path
    const meta = path ? this.metas.get(path) : undefined
    return this.urls.to(meta ? `${urlPath}?v=${meta.hash}` : urlPath)
  }

  /** Answers a GET/HEAD for `public/`, or undefined when there is no such file. @internal used by the HTTP kernel. */
  async servePublic(event: H3Event): Promise<Response | undefined> {
    const root = this.publicRoot
    if (!root || (event.req.method !== 'GET' && event.req.method !== 'HEAD')) return undefined
    const result = await serveStatic(event, { ...this.callbacks((id) => inside(root, id), {}, event), fallthrough: true })
    return result === undefined ? undefined : toResponse(result as { status?: number; body?: unknown }, event)
  }

  private async serve(ctx: HttpContext, locate: (id: string) => string | undefined, options: AssetOptions): Promise<Response> {
    const event = ctx.event
    const result = await serveStatic(event, this.callbacks(locate, options, event))
    return toResponse(result as { status?: number; body?: unknown }, event)
  }

  private callbacks(locate: (id: string) => string | undefined, options: AssetOptions, event: H3Event) {
    // The compressed body chosen by getMeta, so the length and ETag sent match the bytes sent.
    let encoded: Bytes | undefined
    return {
      getMeta: async (id: string) => {
        const path = locate(id)
        const meta = path ? await this.meta(path) : undefined
        if (!meta || !path) return undefined
        const versioned = event.url.searchParams.get('v') === meta.hash || HASHED_NAME.test(path)
        event.res.headers.set('cache-control', versioned ? IMMUTABLE : (options.cacheControl ?? REVALIDATE))
        if (!this.compressed?.qualifies(path, meta.size)) return { size: meta.size, mtime: meta.mtime, etag: meta.etag }
        event.res.headers.append('vary', 'Accept-Encoding')
        // Byte ranges count in the plain file; compressing them would make the offsets meaningless.
        const encoding = event.req.headers.has('range') ? undefined : pickEncoding(event.req.headers.get('accept-encoding'))
        encoded = encoding ? await this.compressed.get(path, meta.etag, encoding).catch(() => undefined) : undefined
        if (!encoding || !encoded) return { size: meta.size, mtime: meta.mtime, etag: meta.etag }
        return { size: encoded.byteLength, mtime: meta.mtime, etag: `"${meta.hash}-${encoding}"`, encoding }
      },
      getContents: (id: string) => encoded ?? readFile(locate(id)!),
    }
  }

  private async meta(path: string): Promise<FileMeta | undefined> {
    const info = await stat(path).catch(() => undefined)
    if (!info?.isFile()) return undefined
    const cached = this.metas.get(path)
    if (cached && cached.size === info.size && cached.mtime === info.mtimeMs) return cached
    const hash = contentHash(await readFile(path))
    const meta = { size: info.size, mtime: info.mtimeMs, etag: `"${hash}"`, hash }
    this.metas.set(path, meta)
    return meta
  }

  private absolute(path: string): string {
    if (!path) throw new KilnError('A static asset needs a file or folder path.')
    return isAbsolute(path) ? path : resolve(this.root, path)
  }
}

/** The file for a URL path inside `root`, or undefined when the path would leave it. */
function inside(root: string, urlPath: string): string | undefined {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return undefined
  }
  if (decoded.includes('\0')) return undefined
  const full = resolve(root, `.${decoded.startsWith('/') ? decoded : `/${decoded}`}`)
  return full.startsWith(root + sep) ? full : undefined
}

function toResponse(result: { body?: unknown; status?: number }, event: H3Event): Response {
  // serveStatic sets its headers on event.res and returns the body and status (304, or 200 with no body for HEAD).
  const status = result.status ?? 200
  const body = status === 304 || event.req.method === 'HEAD' ? null : (result.body as BodyInit | null)
  // Already in its final coding: the response compressor must not touch it.
  return uncompressed(new Response(body, { status, headers: event.res.headers }))
}
