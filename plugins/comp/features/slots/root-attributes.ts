import { escapeAttribute, leadingElement } from '../../rendering/html-root.ts'

/**
 * The names a parent's tag passes to a child's root when the child has no
 * property of that name: the global HTML attributes that carry no script,
 * and `data-*`, `aria-*`. Any other name stays a parameter for `mount()`
 * only, so an event handler (`onclick`), an Alpine or `wire:` directive
 * never reaches the HTML from a tag.
 */
const PASSED = /^(?:class|style|id|title|role|tabindex|lang|dir|hidden|data-[a-z0-9][a-z0-9_.-]{0,63}|aria-[a-z]{1,32})$/

/** What a child's template may write in `{{attributes name="value"}}`: a plain attribute name, never an event handler. */
const WRITTEN = /^[A-Za-z_][\w.:-]{0,63}$/

/**
 * The attributes of a child's tag: the passable names (`PASSED`) that are
 * not its public properties, with text, number or `true` values (`false`
 * and `null` leave the attribute out; objects are parameters only).
 *
 * @example
 * ```ts
 * tagAttributes({ class: 'mt-4', title: 'T', size: 3 }, new Set(['title'])) // { class: 'mt-4' }
 * ```
 */
export function tagAttributes(params: Record<string, unknown>, props: ReadonlySet<string>): Record<string, string | true> {
  const attributes: Record<string, string | true> = {}
  for (const [name, value] of Object.entries(params)) {
    if (props.has(name) || !PASSED.test(name)) continue
    if (value === true) attributes[name] = true
    else if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) attributes[name] = String(value)
  }
  return attributes
}

/**
 * The child's own attributes (`{{attributes class="card"}}` in its view)
 * with the passed ones: `class` and `style` are joined (the child's first),
 * any other passed value wins.
 *
 * @example
 * ```ts
 * mergedAttributes({ class: 'card', id: 'a' }, { class: 'mt-4', id: 'b' }) // { class: 'card mt-4', id: 'b' }
 * ```
 */
export function mergedAttributes(own: Record<string, string | true>, passed: Record<string, string | true>): Record<string, string | true> {
  const out: Record<string, string | true> = { ...own }
  for (const [name, value] of Object.entries(passed)) {
    const mine = out[name]
    if ((name === 'class' || name === 'style') && typeof mine === 'string' && typeof value === 'string' && mine.trim() !== '')
      out[name] = name === 'class' ? `${mine.trim()} ${value}` : `${mine.trim().replace(/;$/, '')}; ${value}`
    else out[name] = value
  }
  return out
}

/**
 * Attributes as HTML (` class="a" hidden`), values escaped; a name outside
 * the safe set or an event handler (`on…`) is left out.
 *
 * @example
 * ```ts
 * attributeText({ class: 'a "b"', hidden: true }) // ' class="a &quot;b&quot;" hidden'
 * ```
 */
export function attributeText(attributes: Record<string, string | true>): string {
  let text = ''
  for (const [name, value] of Object.entries(attributes)) {
    if (!WRITTEN.test(name) || /^on/i.test(name)) continue
    text += value === true ? ` ${name}` : ` ${name}="${escapeAttribute(value)}"`
  }
  return text
}

/** One attribute in a start tag: the name, and the value as written (quotes included), if any. */
const ATTRIBUTE = /\s+([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?/y

/**
 * The component's HTML with the passed attributes on its root element (the
 * first element, past white space and comments): `class` and `style` join
 * the root's own, any other replaces the root's value of that name.
 *
 * @example
 * ```ts
 * withPassedAttributes('<div class="card">…</div>', { class: 'mt-4' }) // '<div class="card mt-4">…</div>'
 * ```
 */
export function withPassedAttributes(html: string, passed: Record<string, string | true>): string {
  const root = leadingElement(html)
  if (!root) return html
  const at = root.insertAt - root.tag.length - 1
  // The root's own attributes stay as written, but those a passed one joins or replaces.
  let kept = ''
  const rest = { ...passed }
  let index = root.insertAt
  for (;;) {
    ATTRIBUTE.lastIndex = index
    const match = ATTRIBUTE.exec(html)
    if (!match) break
    const [text, name, raw] = match
    index = ATTRIBUTE.lastIndex
    if (!Object.prototype.hasOwnProperty.call(rest, name!)) {
      kept += text
      continue
    }
    const own = raw === undefined ? true : unescapeAttribute(raw.replace(/^["']|["']$/g, ''))
    kept += attributeText(mergedAttributes({ [name!]: own }, { [name!]: rest[name!]! }))
    delete rest[name!]
  }
  const close = /^\s*(\/?>)/.exec(html.slice(index))
  if (!close) return html
  return `${html.slice(0, at)}<${root.tag}${kept}${attributeText(rest)}${close[1]}${html.slice(index + close[0].length)}`
}

/** The text of an attribute value as the browser reads it, so it is escaped once, not twice, when written again. */
function unescapeAttribute(value: string): string {
  return value.replace(/&(amp|quot|#39|#x27|lt|gt);/g, (_all, entity: string) => ({ amp: '&', quot: '"', '#39': "'", '#x27': "'", lt: '<', gt: '>' })[entity]!)
}
