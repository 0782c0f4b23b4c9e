import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { HttpException, type HandlerFunction } from '../../../../core/index.ts'
import type { CompServices } from '../../lifecycle/component-hook.ts'
import { contentDisposition, realAllowedPath } from './download-source.ts'
import { downloadStoreOf, type DownloadRecord } from './download-store.ts'

/**
 * `GET /comp/download`: the file an action sent (`this.download()`), as an
 * attachment. The address is signed and expires
 * (`downloads.url_ttl_minutes`): the signed-URL middleware answers 403 to a
 * bad or expired one. It names the session that ran the action, and any
 * other session gets a 403. A file on disk is checked against
 * `downloads.roots` again (links followed) and streamed from the disk;
 * made content is sent once and removed. A download that is gone is a 404.
 *
 * @example
 * ```ts
 * Route.get('/comp/download', downloadHandler(services)).middleware(['signed:relative', 'web'])
 * ```
 */
export function downloadHandler(services: CompServices): HandlerFunction {
  return async (ctx) => {
    const query = ctx.request.url.searchParams
    if (!services.binding.matches(ctx, query.get('s')))
      throw new HttpException(403, 'This download belongs to another session.', { body: { code: 'E_COMP_DOWNLOAD_SESSION' } })
    const downloads = downloadStoreOf(services.app)
    const token = query.get('d') ?? ''
    const record = await downloads.find(token)
    if (!record) throw gone()
    const { body, size } = await bodyOf(services, record, () => downloads.take(token))
    return new Response(body, {
      headers: {
        'content-type': record.contentType,
        'content-length': String(size),
        'content-disposition': contentDisposition(record.name),
        'x-content-type-options': 'nosniff',
        // Opened in a tab instead of saved, the bytes still never run as a page of this site.
        'content-security-policy': "default-src 'none'; sandbox",
        // Bound to one session: no shared cache may keep it.
        'cache-control': 'private, no-store',
      },
    })
  }
}

function gone(): HttpException {
  return new HttpException(404, 'This download has expired or was already taken; run the action again.', { body: { code: 'E_COMP_DOWNLOAD_GONE' } })
}

async function bodyOf(services: CompServices, record: DownloadRecord, take: () => Promise<Uint8Array | undefined>): Promise<{ body: BodyInit; size: number }> {
  if (record.kind === 'content') {
    const bytes = await take()
    if (!bytes) throw gone()
    return { body: Uint8Array.from(bytes), size: bytes.byteLength }
  }
  if (record.kind === 'store') {
    const raw = (await services.app.service('storage').store(record.store).getItemRaw(record.key)) as Uint8Array | string | null
    if (raw === null || raw === undefined) throw gone()
    const bytes = typeof raw === 'string' ? new TextEncoder().encode(raw) : Uint8Array.from(raw)
    return { body: bytes, size: bytes.byteLength }
  }
  const path = await realAllowedPath(services.app.root, services.config.downloads.roots, record.path)
  const info = await stat(path)
  if (!info.isFile()) throw gone()
  // Streamed from the disk: a large file never sits in memory whole.
  return { body: Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>, size: info.size }
}
