import { createRequire } from 'node:module'
import type { Parser as HtmlParser } from 'htmlparser2'
import { KilnError } from '../../../core/index.ts'

let parserClass: typeof HtmlParser | undefined

/**
 * htmlparser2's `Parser`, loaded on the first full root check (a mount):
 * an app boots and serves pages without components without its 25 modules
 * (issue 25, P6). Loaded with `require`, which Node 20.19+ allows for ES
 * modules, so the check stays synchronous.
 */
function loadParser(): typeof HtmlParser {
  return (parserClass ??= (createRequire(import.meta.url)('htmlparser2') as typeof import('htmlparser2')).Parser)
}

/** Where the one root element of a component's HTML starts. */
export interface RootElement {
  /** The tag name as written. */
  tag: string
  /** Index just after the tag name in the source, where attributes can be inserted. */
  insertAt: number
}

/**
 * Finds the single root element of a component's HTML. Anything else at
 * the top level (a second element, or text) is a render-time error naming
 * the component: the browser needs one element to carry the component's
 * id and state, and a second root would silently fall out of every update.
 *
 * @example
 * ```ts
 * rootElement('<div class="x"><p>hi</p></div>', 'counter') // { tag: 'div', insertAt: 4 }
 * ```
 */
export function rootElement(html: string, component: string): RootElement {
  let depth = 0
  let roots = 0
  let first: number | undefined
  let stray: string | undefined
  const parser = new (loadParser())(
    {
      onopentag() {
        if (depth === 0) {
          roots++
          first ??= parser.startIndex
        }
        depth++
      },
      onclosetag() {
        depth = Math.max(0, depth - 1)
      },
      ontext(text) {
        if (depth === 0 && text.trim() !== '') stray ??= text.trim().slice(0, 40)
      },
    },
    { decodeEntities: false, recognizeSelfClosing: true },
  )
  parser.end(html)
  if (roots !== 1 || stray !== undefined || first === undefined) {
    const found = roots === 0 ? 'no element' : roots > 1 ? `${roots} root elements` : `text outside its root ("${stray}")`
    throw new KilnError(`The component "${component}" must render exactly one root element; it rendered ${found}.`, {
      hint: 'Wrap its view in a single element, such as <div>...</div>.',
    })
  }
  const tag = /^<([A-Za-z][\w:.-]*)/.exec(html.slice(first))![1]!
  return { tag, insertAt: first + 1 + tag.length }
}

/**
 * The first element's start tag, past leading whitespace and comments,
 * without parsing the rest: what an update uses outside debug mode, where
 * the full single-root check already ran when the component mounted.
 * Undefined when the HTML does not start with an element.
 *
 * @example
 * ```ts
 * leadingElement('<!-- x --><div class="a">') // { tag: 'div', insertAt: 14 }
 * ```
 */
export function leadingElement(html: string): RootElement | undefined {
  let at = 0
  for (;;) {
    while (at < html.length && /\s/.test(html[at]!)) at++
    if (!html.startsWith('<!--', at)) break
    const end = html.indexOf('-->', at + 4)
    if (end < 0) return undefined
    at = end + 3
  }
  const match = /^<([A-Za-z][\w:.-]*)/.exec(html.slice(at, at + 64))
  return match ? { tag: match[1]!, insertAt: at + 1 + match[1]!.length } : undefined
}

/**
 * Inserts attributes into the root element's start tag (values escaped for
 * a double-quoted attribute). With `check: false` only the leading start tag
 * is looked at; by default the whole HTML must have a single root.
 *
 * @example
 * ```ts
 * withRootAttributes('<div>1</div>', 'counter', { 'wire:id': 'a1' }) // '<div wire:id="a1">1</div>'
 * ```
 */
export function withRootAttributes(
  html: string,
  component: string,
  attributes: Record<string, string>,
  options: { check?: boolean } = {},
): { html: string; tag: string } {
  const { tag, insertAt } = (options.check === false && leadingElement(html)) || rootElement(html, component)
  const text = Object.entries(attributes)
    .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
    .join('')
  return { html: html.slice(0, insertAt) + text + html.slice(insertAt), tag }
}

/**
 * Escapes text for a double-quoted HTML attribute.
 *
 * @example
 * ```ts
 * escapeAttribute('{"a":"<b>"}') // '{&quot;a&quot;:&quot;&lt;b&gt;&quot;}'
 * ```
 */
export function escapeAttribute(value: string): string {
  return value.replace(/[&"'<>]/g, (c) => ({ '&': '&amp;', '"': '&quot;', "'": '&#39;', '<': '&lt;', '>': '&gt;' })[c]!)
}
