import { KilnError } from '../support/errors.ts'
import { cpSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/** One file or folder a plugin offers to copy into the app. */
export interface PublishEntry {
  /** Absolute path inside the plugin. */
  from: string
  /** Path relative to the app root. */
  to: string
}

/** What a publish did. */
export interface PublishResult {
  copied: string[]
  skipped: string[]
}

/**
 * The `vendor:publish` registry: plugins offer config files, migrations and
 * views under a tag; the app copies them in and owns them from then on.
 *
 * @example
 * ```ts
 * // in a plugin's boot(app)
 * app.service('publisher').publishes('tok-config', [{ from: new URL('./stubs/tok.ts', import.meta.url).pathname, to: 'config/tok.ts' }])
 * ```
 */
export class Publisher {
  private readonly tags = new Map<string, PublishEntry[]>()

  /** Offers files under a tag. @example `publisher.publishes('tok-migrations', [...])` */
  publishes(tag: string, entries: PublishEntry[]): void {
    this.tags.set(tag, [...(this.tags.get(tag) ?? []), ...entries])
  }

  /** Every tag, sorted. @example `publisher.tagNames()` */
  tagNames(): string[] {
    return [...this.tags.keys()].sort()
  }

  /** The entries of a tag. @example `publisher.entries('tok-config')` */
  entries(tag: string): readonly PublishEntry[] | undefined {
    return this.tags.get(tag)
  }

  /**
   * Copies a tag's files into `root`; existing files are skipped unless `force`.
   *
   * @example
   * ```ts
   * publisher.publish('tok-config', app.root, { force: false })
   * ```
   */
  publish(tag: string, root: string, options: { force?: boolean } = {}): PublishResult {
    const entries = this.tags.get(tag)
    if (!entries) throw new KilnError(`Unknown publish tag "${tag}".`, { code: 'E_PUBLISH_TAG' })
    const result: PublishResult = { copied: [], skipped: [] }
    for (const entry of entries) {
      for (const file of listFiles(entry.from)) {
        const target = resolve(root, entry.to, relative(entry.from, file))
        const shown = relative(root, target)
        if (existsSync(target) && !options.force) {
          result.skipped.push(shown)
          continue
        }
        mkdirSync(dirname(target), { recursive: true })
        cpSync(file, target)
        result.copied.push(shown)
      }
    }
    return result
  }
}

function listFiles(path: string): string[] {
  if (!existsSync(path)) throw new KilnError(`Nothing to publish at ${path}.`, { code: 'E_PUBLISH_SOURCE' })
  if (!statSync(path).isDirectory()) return [path]
  return readdirSync(path).flatMap((name) => listFiles(join(path, name)))
}
