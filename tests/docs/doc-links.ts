/**
 * Finds the relative links of markdown pages that lead nowhere: a file that
 * does not exist, or a `#anchor` that no heading of the page it points to
 * makes. Anchors are the ones GitHub gives headings (lowercased, punctuation
 * dropped, spaces as hyphens, `-1`, `-2`... for repeats).
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { markdownPages } from '../../scripts/docs-typecheck.ts'

/** One link that leads nowhere, where it is and why. */
export interface BrokenLink {
  /** The page and line, relative to the root given: `docs/http.md:12`. */
  where: string
  target: string
  reason: string
}

/**
 * The markdown pages of a folder and its subfolders, as absolute paths.
 *
 * @example
 * ```ts
 * pagesUnder('/repo/docs') // ['/repo/docs/auth.md', '/repo/docs/components/README.md', ...]
 * ```
 */
export function pagesUnder(dir: string): string[] {
  return markdownPages(dir).map((page) => join(dir, page))
}

/** The page's lines with fenced code blocks blanked, so that code is never read as links or headings. */
function proseLines(markdown: string): string[] {
  let fence: string | undefined
  return markdown.split('\n').map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1]
    if (marker && (fence === undefined || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence === undefined ? marker : undefined
      return ''
    }
    return fence === undefined ? line : ''
  })
}

/**
 * The anchor GitHub gives a heading's text.
 *
 * @example
 * ```ts
 * slug('Echo listeners: broadcasts into components') // 'echo-listeners-broadcasts-into-components'
 * slug('`$wire` and the global object')              // 'wire-and-the-global-object'
 * ```
 */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link's text only
    .replace(/<[^>]+>/g, '') // inline HTML tags
    .replace(/`/g, '')
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-')
}

/**
 * The anchors a page makes: one per heading, numbered from the second of a
 * name on, and any `<a id>` / `<a name>`.
 *
 * @example
 * ```ts
 * anchors('# Title\n## Setup\n## Setup\n') // Set { 'title', 'setup', 'setup-1' }
 * ```
 */
export function anchors(markdown: string): Set<string> {
  const found = new Set<string>()
  const seen = new Map<string, number>()
  for (const line of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1]
    if (heading !== undefined) {
      const base = slug(heading)
      const count = seen.get(base) ?? 0
      seen.set(base, count + 1)
      found.add(count === 0 ? base : `${base}-${count}`)
    }
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) found.add(match[1]!)
  }
  return found
}

/** The `(target)` of every inline link and image on a line, outside code spans. */
function linkTargets(line: string): string[] {
  const prose = line.replace(/(`+)[^`]*?\1/g, '')
  return [...prose.matchAll(/!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^\s)>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!)
}

/**
 * Every relative link of the given pages that leads nowhere. Links with a
 * scheme (`https:`, `mailto:`) are not followed.
 *
 * @example
 * ```ts
 * const broken = brokenLinks('/repo', ['/repo/README.md', ...pagesUnder('/repo/docs')])
 * for (const link of broken) console.error(`${link.where}: ${link.target} (${link.reason})`)
 * ```
 */
export function brokenLinks(root: string, pages: string[]): BrokenLink[] {
  const anchorsOf = new Map<string, Set<string>>()
  const pageAnchors = (file: string) => {
    if (!anchorsOf.has(file)) anchorsOf.set(file, anchors(readFileSync(file, 'utf8')))
    return anchorsOf.get(file)!
  }
  const broken: BrokenLink[] = []
  for (const page of pages) {
    proseLines(readFileSync(page, 'utf8')).forEach((line, index) => {
      for (const target of linkTargets(line)) {
        if (/^[a-z][a-z\d+.-]*:/i.test(target) || target.startsWith('//')) continue
        const where = `${relative(root, page)}:${index + 1}`
        const [path = '', anchor] = target.split('#') as [string, string | undefined]
        const file = path === '' ? page : resolve(dirname(page), decodeURIComponent(path))
        if (!existsSync(file)) {
          broken.push({ where, target, reason: 'no such file' })
          continue
        }
        if (anchor === undefined || anchor === '') continue
        if (statSync(file).isDirectory() || !file.endsWith('.md')) {
          broken.push({ where, target, reason: 'an anchor into something that is not a markdown page' })
          continue
        }
        if (!pageAnchors(file).has(decodeURIComponent(anchor))) broken.push({ where, target, reason: `${relative(root, file)} has no heading for #${anchor}` })
      }
    })
  }
  return broken
}
