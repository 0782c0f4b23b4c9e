import type { FeatureProvider } from '../../extension/feature-provider.ts'
import { failAssertion, show, type ComponentAssertions } from '../../testing/assertions.ts'

declare module '../../testing/assertions.ts' {
  interface ComponentAssertions {
    /**
     * The last update sent a file: any, or one saved under this name, with these contents (text or bytes) and this
     * content type (its part before `;` is enough). The file is fetched as the browser fetches it.
     *
     * @example `exporter.assertFileDownloaded('report.csv', 'id,title\n1,Buy milk\n', 'text/csv')`
     */
    assertFileDownloaded(name?: string, contents?: string | Uint8Array, contentType?: string): this

    /** The last update sent no file. @example `exporter.assertNoFileDownloaded()` */
    assertNoFileDownloaded(): this
  }
}

declare module '../../testing/pending-test.ts' {
  interface PendingComponentTest {
    /** See {@link ComponentAssertions.assertFileDownloaded}. */
    assertFileDownloaded(name?: string, contents?: string | Uint8Array, contentType?: string): this

    /** See {@link ComponentAssertions.assertNoFileDownloaded}. */
    assertNoFileDownloaded(): this
  }
}

/** A file the last update of a component under test sent, as its browser fetched it. */
interface FetchedDownload {
  name: string
  status: number
  contentType: string
  bytes: Uint8Array
  message?: string
}

// The last answer's download of each component under test (absent: it sent none).
const fetched = new WeakMap<ComponentAssertions, FetchedDownload>()

/**
 * Fetches the file of an answer's `download` effect with the test's client, as the browser would, for the assertions.
 *
 * @example
 * ```ts
 * const feature: FeatureProvider = { name: 'downloads', readTestAnswer: readDownload }
 * ```
 */
export const readDownload: NonNullable<FeatureProvider['readTestAnswer']> = async (test, effects, client) => {
  const download = effects.download as { url: string; name: string } | undefined
  if (!download) {
    fetched.delete(test)
    return
  }
  const res = await client.get(download.url)
  const bytes = new Uint8Array(await res.raw.arrayBuffer())
  const message = res.status === 200 ? undefined : new TextDecoder().decode(bytes).slice(0, 300)
  fetched.set(test, { name: download.name, status: res.status, contentType: res.header('content-type') ?? '', bytes, message })
}

/**
 * What downloads add to a component under test: `assertFileDownloaded` and `assertNoFileDownloaded`, as Livewire's.
 *
 * @example
 * ```ts
 * const feature: FeatureProvider = { name: 'downloads', assertions: downloadAssertions }
 * ```
 */
export const downloadAssertions: FeatureProvider['assertions'] = {
  assertFileDownloaded(this: ComponentAssertions, name?: string, contents?: string | Uint8Array, contentType?: string) {
    const file = fetched.get(this)
    const fail = (message: string, actual: unknown, expected: unknown) => failAssertion(this, message, { actual, expected, operator: 'assertFileDownloaded' })
    if (!file) return fail(`Expected a file download${name === undefined ? '' : ` named ${show(name)}`}, but the last update sent no file.`, undefined, name)
    if (name !== undefined && file.name !== name) fail(`Expected a file download named ${show(name)}, but it is named ${show(file.name)}.`, file.name, name)
    if (file.status !== 200)
      fail(`Expected the file ${show(file.name)} to be fetched, but its address answered ${file.status}: ${show(file.message)}.`, file.status, 200)
    if (contents !== undefined) {
      const wanted = typeof contents === 'string' ? new TextEncoder().encode(contents) : contents
      if (Buffer.compare(Buffer.from(wanted), Buffer.from(file.bytes)) !== 0) {
        const actual = typeof contents === 'string' ? new TextDecoder().decode(file.bytes) : file.bytes
        fail(`Expected the file ${show(file.name)} to hold ${show(contents)}, but it holds ${show(actual)}.`, actual, contents)
      }
    }
    if (contentType !== undefined) {
      const base = (type: string) => type.split(';')[0]!.trim().toLowerCase()
      const ok = contentType.includes(';') ? file.contentType.toLowerCase() === contentType.toLowerCase() : base(file.contentType) === base(contentType)
      if (!ok) fail(`Expected the file ${show(file.name)} to be ${show(contentType)}, but it is ${show(file.contentType)}.`, file.contentType, contentType)
    }
  },

  assertNoFileDownloaded(this: ComponentAssertions) {
    const file = fetched.get(this)
    if (file)
      failAssertion(this, `Expected no file download, but the last update sent ${show(file.name)}.`, { actual: file.name, operator: 'assertNoFileDownloaded' })
  },
}
