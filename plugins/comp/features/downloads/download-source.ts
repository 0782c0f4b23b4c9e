import { realpath } from 'node:fs/promises'
import { basename, extname, isAbsolute, relative, resolve } from 'node:path'
import { HttpException } from '../../../../core/index.ts'

/** A file in one of the app's storage stores (config/storage.ts), by its key: `{ store: 'local', key: 'reports/q3.csv' }`. */
export interface StoredFile {
  /** The store's name; the default store (`storage.default`) when omitted. */
  store?: string
  key: string
}

/** Content an action makes for a download: text, bytes, a Blob, or a stream of them (a web or Node stream). */
export type DownloadContent = string | Uint8Array | ArrayBuffer | Blob | ReadableStream<Uint8Array | string> | AsyncIterable<Uint8Array | string>

/** What `this.download()` and `this.streamDownload()` take besides the source. */
export interface DownloadOptions {
  /** The `Content-Type`; from the name's extension when omitted (`application/octet-stream` for one it does not know). */
  contentType?: string
}

/**
 * What an action asked to download, as the component's update carries it to
 * its dehydrate step: a file on disk, a stored file, or made content. Also
 * what `return this.download(...)` gives the action, so that it reads as Livewire's.
 */
export type FileDownload =
  | { readonly kind: 'path'; readonly path: string; readonly name: string; readonly contentType: string }
  | { readonly kind: 'store'; readonly store: string | undefined; readonly key: string; readonly name: string; readonly contentType: string }
  | { readonly kind: 'content'; readonly content: DownloadContent; readonly name: string; readonly contentType: string }

/** Refusals of a download an action asked for: a 4xx with a stable code. */
function refused(status: number, message: string, code: string): HttpException {
  return new HttpException(status, message, { body: { code } })
}

/**
 * A file name as the browser will save it: the last segment only, without
 * control characters or quotes, at most 200 characters. Empty is refused.
 *
 * @example
 * ```ts
 * downloadName('../../etc/report "q3".csv') // 'report q3.csv'
 * ```
 */
export function downloadName(name: string): string {
  // Control characters and quotes would break the Content-Disposition header or mislead the person saving the file.
  const last = basename(String(name).replace(/\\/g, '/'))
  const clean = [...last]
    .filter((ch) => ch >= ' ' && ch !== '\u007f' && ch !== '"')
    .join('')
    .trim()
    .slice(0, 200)
  if (!clean || clean === '.' || clean === '..') throw refused(422, 'A download needs a file name.', 'E_COMP_DOWNLOAD_NAME')
  return clean
}

/**
 * The path a download may send, resolved against the app root, or a 403
 * (`E_COMP_DOWNLOAD_PATH`) when it is outside every allowed root
 * (`downloads.roots`): `../` or an absolute path elsewhere never reaches a
 * file the app did not mean to send.
 *
 * @example
 * ```ts
 * allowedPath('/app', ['storage/app'], 'storage/app/reports/q3.csv') // '/app/storage/app/reports/q3.csv'
 * ```
 */
export function allowedPath(appRoot: string, roots: readonly string[], path: string): string {
  const full = resolve(appRoot, String(path))
  if (!roots.some((root) => inside(resolve(appRoot, root), full)))
    throw refused(403, 'This file is outside the folders downloads may send (config/comp.ts `downloads.roots`).', 'E_COMP_DOWNLOAD_PATH')
  return full
}

/**
 * As {@link allowedPath}, with links followed: a symbolic link inside a root
 * that points outside every root is refused too. A missing file is a 404.
 *
 * @example
 * ```ts
 * const file = await realAllowedPath(app.root, config.downloads.roots, record.path)
 * ```
 */
export async function realAllowedPath(appRoot: string, roots: readonly string[], path: string): Promise<string> {
  const full = allowedPath(appRoot, roots, path)
  const real = await realpath(full).catch(() => undefined)
  if (real === undefined) throw refused(404, 'The file to download is not there.', 'E_COMP_DOWNLOAD_MISSING')
  const realRoots = await Promise.all(roots.map((root) => realpath(resolve(appRoot, root)).catch(() => undefined)))
  if (!realRoots.some((root) => root !== undefined && inside(root, real)))
    throw refused(403, 'This file is outside the folders downloads may send (config/comp.ts `downloads.roots`).', 'E_COMP_DOWNLOAD_PATH')
  return real
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path)
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)
}

// The types a download most often has; anything else is application/octet-stream unless the action names it.
const TYPES: Readonly<Record<string, string>> = {
  '.csv': 'text/csv; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ics': 'text/calendar; charset=utf-8',
  '.xml': 'application/xml',
}

/**
 * The `Content-Type` of a download: the one given (without line breaks), else the usual one for the name's extension.
 *
 * @example
 * ```ts
 * downloadType('report.csv') // 'text/csv; charset=utf-8'
 * ```
 */
export function downloadType(name: string, given?: string): string {
  if (given !== undefined) {
    const type = String(given).trim()
    if (!/^[\w.+-]+\/[\w.+-]+(\s*;[^\r\n]*)?$/.test(type)) throw refused(422, `"${type.slice(0, 100)}" is not a content type.`, 'E_COMP_DOWNLOAD_TYPE')
    return type
  }
  return TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream'
}

/**
 * The `Content-Disposition` of a download: an attachment, with an ASCII
 * `filename` for old clients and the exact UTF-8 name in `filename*` (RFC 6266).
 *
 * @example
 * ```ts
 * contentDisposition('rapport é.csv') // `attachment; filename="rapport _.csv"; filename*=UTF-8''rapport%20%C3%A9.csv`
 * ```
 */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/[\\"]/g, '_')
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`
}
