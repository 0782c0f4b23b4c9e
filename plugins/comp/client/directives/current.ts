/**
 * `wire:current="classes"` on links anywhere in the page (a layout's menu
 * too, outside any component): the link gets the classes and
 * `data-current` while its `href` is the current page. By default a link
 * matches the pages under it, segment by segment (`/posts` is current on
 * `/posts/1`, not on `/postscript`); `.exact` matches the path only;
 * `.strict` keeps trailing slashes in the comparison. The query string and
 * the hash are not compared.
 */

/** The link's `wire:current` attribute, whatever its modifiers. */
function currentAttribute(link: Element): Attr | undefined {
  for (const attribute of link.attributes) if (attribute.name === 'wire:current' || attribute.name.startsWith('wire:current.')) return attribute
  return undefined
}

function matches(href: URL, page: URL, modifiers: string[]): boolean {
  if (href.host !== page.host) return false
  const trim = (path: string) => (modifiers.includes('strict') ? path : path.replace(/\/+$/, ''))
  const linkPath = trim(href.pathname)
  const pagePath = trim(page.pathname)
  if (modifiers.includes('exact')) return linkPath === pagePath
  const pageSegments = pagePath.split('/')
  return linkPath.split('/').every((segment, index) => segment === pageSegments[index])
}

/**
 * Marks the `wire:current` links in `root` against the current address. The
 * client calls it when the page starts, after each `wire:navigate` visit
 * and after each morph (which gives links the server's `class` back).
 *
 * @example
 * ```ts
 * markCurrentLinks(document)
 * ```
 */
export function markCurrentLinks(root: ParentNode): void {
  const page = new URL(location.href)
  for (const link of root.querySelectorAll('[href]')) {
    const attribute = currentAttribute(link)
    const href = link.getAttribute('href')!
    if (!attribute || href.startsWith('#')) continue
    const on = matches(new URL(href, page), page, attribute.name.split('.').slice(1))
    for (const name of attribute.value.split(/\s+/).filter(Boolean)) link.classList.toggle(name, on)
    link.toggleAttribute('data-current', on)
  }
}

/**
 * Marks the page's links now and after every `wire:navigate` visit.
 *
 * @example
 * ```ts
 * watchCurrentLinks()
 * ```
 */
export function watchCurrentLinks(): void {
  const mark = () => markCurrentLinks(document)
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mark)
  else mark()
  document.addEventListener('comp:navigated', mark)
}
