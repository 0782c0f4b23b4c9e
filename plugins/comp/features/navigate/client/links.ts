import { navigate, prefetch } from '../../../client/navigate.ts'

const LINK = 'a[wire\\:navigate],a[wire\\:navigate\\.hover]'
/** How long the pointer must rest on a `wire:navigate.hover` link before its page is fetched. */
const HOVER_MS = 60

/** The address of a `wire:navigate` link this event should visit, if any (plain left clicks on same-tab links only). */
function visitable(event: Event, selector = LINK): { link: Element; href: string } | undefined {
  const link = (event.target as Element | null)?.closest?.(selector)
  const mouse = event as MouseEvent
  if (!link || event.defaultPrevented || mouse.metaKey || mouse.ctrlKey || mouse.shiftKey || mouse.button !== 0) return undefined
  const href = link.getAttribute('href')
  if (!href || link.getAttribute('target') === '_blank') return undefined
  return { link, href }
}

// Links with wire:navigate anywhere in the page (a layout's menu, too).
document.addEventListener('click', (event) => {
  const found = visitable(event)
  if (!found) return
  event.preventDefault()
  void navigate(found.href)
})

// The page is fetched from the press of the button, before the click that follows its release.
document.addEventListener('mousedown', (event) => {
  const found = visitable(event)
  if (found) prefetch(found.href)
})

// wire:navigate.hover: fetched once the pointer rests on the link, not when it only passes over.
document.addEventListener('mouseover', (event) => {
  const found = visitable(event, 'a[wire\\:navigate\\.hover]')
  if (!found || found.link.contains(event.relatedTarget as Node | null)) return
  const timer = setTimeout(() => prefetch(found.href), HOVER_MS)
  found.link.addEventListener('mouseleave', () => clearTimeout(timer), { once: true })
})
