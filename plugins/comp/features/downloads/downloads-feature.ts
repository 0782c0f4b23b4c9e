import { KilnError, storeScope } from '../../../../core/index.ts'
import type { FeatureProvider } from '../../extension/feature-provider.ts'
import { runOf, type ComponentRun } from '../../component-run.ts'
import type { Component } from '../../component.ts'
import { downloadAssertions, readDownload } from './download-assertions.ts'
import { downloadHandler } from './download-handler.ts'
import { allowedPath, downloadName, downloadType, type DownloadContent, type DownloadOptions, type FileDownload, type StoredFile } from './download-source.ts'
import { DownloadStore, downloadStoreOf, keepDownloadStore } from './download-store.ts'

declare module '../../component.ts' {
  interface Component {
    /**
     * Sends a file to the browser, which saves it (Livewire's `return
     * response()->download()`): a path under one of `downloads.roots`
     * (config/comp.ts; relative paths start at the app root), or a file of a
     * storage store. The name the browser saves it under is the file's own
     * unless given. The component renders as after any action. A path outside
     * the roots is refused (403).
     *
     * @example
     * ```ts
     * export() { return this.download('storage/app/reports/q3.csv', 'report.csv') }
     * invoice() { return this.download({ store: 'local', key: `invoices/${this.id}.pdf` }, 'invoice.pdf') }
     * ```
     */
    download(source: string | StoredFile, name?: string, options?: DownloadOptions): FileDownload

    /**
     * Sends content the action makes as a file the browser saves (Livewire's
     * `response()->streamDownload()`): text, bytes, a Blob, or a stream.
     *
     * @example
     * ```ts
     * export() { return this.streamDownload(this.rows.map((r) => r.join(',')).join('\n'), 'report.csv') }
     * ```
     */
    streamDownload(content: DownloadContent, name: string, options?: DownloadOptions): FileDownload
  }
}

// Per run, only for the runs that download: a component that never does costs nothing.
const requested = new WeakMap<ComponentRun, FileDownload>()

/**
 * The download an action of this run asked for (the last, if it asked twice).
 *
 * @example
 * ```ts
 * const download = requestedDownload(c.run)
 * ```
 */
export function requestedDownload(run: ComponentRun): FileDownload | undefined {
  return requested.get(run)
}

function request(component: Component, download: FileDownload): FileDownload {
  requested.set(runOf(component), download)
  return download
}

/**
 * Downloads from actions, besides their hook: `this.download()` and
 * `this.streamDownload()` on every component, `GET /comp/download` that
 * sends the file, and `assertFileDownloaded`/`assertNoFileDownloaded` on a
 * component under test.
 *
 * @example
 * ```ts
 * installFeatures([downloadsFeature])
 * ```
 */
export const downloadsFeature: FeatureProvider = {
  name: 'downloads',
  assertions: downloadAssertions,
  readTestAnswer: readDownload,
  methods: {
    download(this: Component, source: string | StoredFile, name?: string, options: DownloadOptions = {}) {
      const app = runOf(this).ctx?.app
      if (!app) throw new KilnError(`${this.constructor.name} can download only in an update.`, { code: 'E_COMP_OUTSIDE_LIFECYCLE' })
      if (typeof source === 'string') {
        // Checked now, so a path from user input that leaves the roots fails the action where it is written.
        const path = allowedPath(app.root, downloadStoreOf(app).config.roots, source)
        const saved = downloadName(name ?? path)
        return request(this, { kind: 'path', path, name: saved, contentType: downloadType(saved, options.contentType) })
      }
      if (source === null || typeof source !== 'object' || typeof source.key !== 'string' || !source.key)
        throw new KilnError('this.download() takes a path or { store, key }.', { code: 'E_COMP_DOWNLOAD_SOURCE' })
      const saved = downloadName(name ?? source.key)
      return request(this, { kind: 'store', store: source.store, key: source.key, name: saved, contentType: downloadType(saved, options.contentType) })
    },
    streamDownload(this: Component, content: DownloadContent, name: string, options: DownloadOptions = {}) {
      const saved = downloadName(name)
      return request(this, { kind: 'content', content, name: saved, contentType: downloadType(saved, options.contentType) })
    },
  },
  register({ app, services }) {
    const config = services.config.downloads
    keepDownloadStore(app, new DownloadStore(app.service('storage'), config))
    // Made content waits there for the browser's fetch, which another process may answer.
    const driver = app.config.get<string | undefined>(`storage.stores.${config.store}.driver`)
    app.service('processState').declare({
      what: `component downloads' store (config/storage.ts \`stores.${config.store}\`, ${driver ?? 'missing'})`,
      scope: storeScope(driver),
      setting:
        'set its driver to redis or fs (UPLOADS_STORE=redis in the starter, whose `tmp` store both use), or config/comp.ts `downloads.store` to another store',
    })
  },
  boot({ app, services }) {
    app.router.get('/comp/download', downloadHandler(services)).middleware(['signed:relative', 'web']).name('comp.download')
  },
}
