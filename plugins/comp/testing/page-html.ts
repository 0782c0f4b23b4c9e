import { createRequire } from 'node:module'
import type { Parser as HtmlParser } from 'htmlparser2'
import type { Snapshot } from '../protocol/snapshot.ts'

let parserClass: typeof HtmlParser | undefined

/**
 * The components rendered in a page or a mount's HTML: each root's
 * snapshot (from its `wire:snapshot` attribute) and its outer HTML.
 *
 * @example
 * ```ts
 * const [first] = componentRoots(await response.text())
 * first?.snapshot.fingerprint.name // 'counter'
 * ```
 */
export function componentRoots(html: string): Array<{ snapshot: Snapshot; html: string }> {
  return [...html.matchAll(/<([A-Za-z][\w:.-]*)\s[^>]*?wire:snapshot="([^"]*)"/g)].map((match) => ({
    snapshot: JSON.parse(unescapeAttribute(match[2]!)) as Snapshot,
    html: outerHtml(html, match.index),
  }))
}

/**
 * The HTML a visitor would read: a component's markers (`wire:id`,
 * `wire:name`, `wire:snapshot`, `wire:effects`) removed, so that text
 * assertions do not match a random id or the state serialized in a
 * snapshot, which is never shown; and the comments around template blocks
 * (`<!--[if BLOCK]><![endif]-->`, for the browser's morph), so that
 * `assertSeeHtml('<ul><li>')` reads the template as written.
 *
 * @example
 * ```ts
 * visibleHtml('<div wire:id="x1" wire:snapshot="{…}"><p>3</p></div>') // '<div><p>3</p></div>'
 * ```
 */
export function visibleHtml(html: string): string {
  return html.replace(/\swire:(?:id|name|snapshot|effects)="[^"]*"/g, '').replace(/<!--\[if (?:END)?BLOCK\]><!\[endif\]-->/g, '')
}

/**
 * Undoes the attribute escaping of a snapshot or address.
 *
 * @example
 * ```ts
 * unescapeAttribute('{&quot;a&quot;:1}') // '{"a":1}'
 * ```
 */
export function unescapeAttribute(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

/** The element that starts at `start`, up to its end tag. */
function outerHtml(html: string, start: number): string {
  const rest = html.slice(start)
  let depth = 0
  let end = rest.length
  // Required on first use (Node 20.19+ requires ES modules): the plugin's barrel exports the test helpers, so a
  // static import would load htmlparser2 into every app at boot.
  parserClass ??= (createRequire(import.meta.url)('htmlparser2') as typeof import('htmlparser2')).Parser
  const parser = new parserClass(
    {
      onopentag() {
        depth++
      },
      onclosetag() {
        depth--
        if (depth === 0 && end === rest.length) end = parser.endIndex + 1
      },
    },
    { decodeEntities: false, recognizeSelfClosing: true },
  )
  parser.end(rest)
  return rest.slice(0, end)
}
