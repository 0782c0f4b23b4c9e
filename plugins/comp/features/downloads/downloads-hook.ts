import { HttpException } from '../../../../core/index.ts'
import type { ComponentContext, ComponentHook } from '../../lifecycle/component-hook.ts'
import { realAllowedPath, type FileDownload } from './download-source.ts'
import { downloadStoreOf } from './download-store.ts'
import { requestedDownload } from './downloads-feature.ts'

/** What the browser gets for a download: the address to fetch it from, and the name to save it under. */
export interface DownloadEffect {
  url: string
  name: string
}

/**
 * Downloads: the file an action asked for (`this.download()`) is kept for a
 * moment, and the update's answer carries a `download` effect with a short-lived
 * address, signed for this session, that the browser fetches and saves. The
 * component renders as after any action.
 *
 * @example
 * ```ts
 * const features = [downloads, ...]
 * ```
 */
export const downloads: ComponentHook = {
  name: 'downloads',
  dehydrate(c) {
    const download = requestedDownload(c.run)
    // Only an update's answer reaches the browser's effect handlers.
    if (!download || c.mounting) return
    return offer(c, download)
  },
}

async function offer(c: ComponentContext, download: FileDownload): Promise<void> {
  const { app, config, binding } = c.services
  const store = downloadStoreOf(app)
  // A missing file or a link out of the roots fails the action's own update, where the mistake is.
  if (download.kind === 'path') await realAllowedPath(app.root, config.downloads.roots, download.path)
  if (download.kind === 'store' && !(await app.service('storage').store(download.store).hasItem(download.key)))
    throw new HttpException(404, 'The file to download is not in the store.', { body: { code: 'E_COMP_DOWNLOAD_MISSING' } })
  const token = await store.put(download)
  const url = app.service('signer').sign('/comp/download', { ttlMinutes: config.downloads.url_ttl_minutes, params: { d: token, s: binding.tag(c.run.ctx) } })
  c.effects.download = { url, name: download.name } satisfies DownloadEffect
}
