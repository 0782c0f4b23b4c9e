import { wrapApply } from '../../../client/effects.ts'
import type { PageComponent } from '../../../client/page-component.ts'

/** The `transition` effect: the type of this update's view transition, or none at all. */
interface TransitionEffect {
  type?: string
  skip?: boolean
}

interface ViewTransition {
  ready: Promise<void>
  updateCallbackDone: Promise<void>
  finished: Promise<void>
}

type Start = (options: { update: () => void; types: string[] } | (() => void)) => ViewTransition

/** View transitions under way: the page itself stays out of them until the last ends. */
let active = 0

/**
 * The view-transition form of `wire:transition` in `root` and its own
 * parts (not other components'): the bare attribute (modifiers make it
 * Alpine's x-transition), on an element without `wire:show`.
 */
function marked(root: ParentNode, id: string): HTMLElement[] {
  return [root, ...root.querySelectorAll('[wire\\:transition]')].filter(
    (el): el is HTMLElement =>
      el instanceof HTMLElement &&
      el.hasAttribute('wire:transition') &&
      ![...el.attributes].some((attribute) => attribute.name.startsWith('wire:show')) &&
      (el.closest('[wire\\:id]')?.getAttribute('wire:id') ?? id) === id,
  )
}

/**
 * What the server sent of an element, to compare old and new: tag,
 * attributes and text, leaving out what the browser adds (inline style, the
 * loading mark, a new snapshot) and other components' insides (they render
 * themselves). A difference the browser made costs only a transition that
 * shows nothing.
 */
function signature(node: Node, top = true): string {
  if (node.nodeType === Node.TEXT_NODE) return node.nodeValue!.trim()
  if (!(node instanceof Element)) return ''
  if (!top && node.hasAttribute('wire:id')) return `<${node.getAttribute('wire:id')}>`
  // Sorted: a morph appends the attributes it adds, where the server's HTML may have them first.
  const attributes = [...node.attributes].filter(({ name }) => !/^(style|data-loading|wire:snapshot)$/.test(name)).map(({ name, value }) => `${name}=${value}`)
  let out = `<${node.localName} ${attributes.sort().join(' ')}`
  if (!node.hasAttribute('wire:ignore')) for (const child of node.childNodes) out += signature(child, false)
  return `${out}>`
}

/** True when the answer adds, removes, moves or changes a `wire:transition` element of the component. */
function touches(component: PageComponent, effects: Record<string, unknown>): boolean {
  const parts: Array<[Element | null, string]> = []
  if (typeof effects.html === 'string') parts.push([component.el, effects.html])
  for (const [name, html] of Object.entries((effects.islands ?? {}) as Record<string, string>))
    parts.push([component.el.querySelector(`[wire\\:island="${CSS.escape(name)}"]`), html])
  return parts.some(([el, html]) => {
    if (!el || (!html.includes('wire:transition') && !el.querySelector('[wire\\:transition]'))) return false
    const template = document.createElement('template')
    template.innerHTML = html
    const before = marked(el, component.id).map((node) => signature(node))
    const after = marked(template.content, component.id).map((node) => signature(node))
    return before.length !== after.length || before.some((entry, i) => entry !== after[i])
  })
}

// An answer that adds, removes or changes `wire:transition` elements is applied inside
// `document.startViewTransition()`: the browser snapshots them before and after, and animates between.
wrapApply((component, effects, apply) => {
  const options = (effects.transition ?? {}) as TransitionEffect
  const start = (document as Document & { startViewTransition?: Start }).startViewTransition
  if (
    !start ||
    options.skip ||
    matchMedia('(prefers-reduced-motion: reduce)').matches ||
    // The transition would paint above a modal dialog, hiding nothing but showing over it.
    document.querySelector('dialog:modal') ||
    !touches(component, effects)
  )
    return apply()

  const named: HTMLElement[] = []
  // Names go on just for the transition (a name makes a stacking context). In a typed transition, unnamed
  // elements stay unnamed: they move with the named element around them, as one piece.
  const name = () => {
    for (const el of marked(component.el, component.id)) {
      const given = el.getAttribute('wire:transition')
      if (el.style.viewTransitionName || (!given && options.type)) continue
      el.style.viewTransitionName = given || 'match-element'
      named.push(el)
    }
  }
  const update = () => {
    apply()
    // Added elements need their names now, before the browser takes the new snapshot.
    name()
  }
  name()
  // The page around the elements changes at once instead of cross-fading.
  if (active++ === 0) document.documentElement.style.viewTransitionName = 'none'
  let transition: ViewTransition
  try {
    transition = start.call(document, { update, types: options.type ? [options.type] : [] })
  } catch {
    // A browser that takes only the callback form plays it without a type.
    transition = start.call(document, update)
  }
  // `ready` rejects when the transition is skipped (another one started): the update still runs.
  transition.ready.catch(() => {})
  transition.updateCallbackDone.catch((error: unknown) => console.error(error))
  void transition.finished
    .catch(() => {})
    .then(() => {
      for (const el of named) el.style.viewTransitionName = ''
      if (--active === 0) document.documentElement.style.viewTransitionName = ''
    })
})
