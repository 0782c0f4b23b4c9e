import { alpine, bindVirtual } from '../alpine.ts'
import type { PageComponent } from '../page-component.ts'
import type { Directive } from './parse.ts'

/** What Alpine's x-transition leaves on an element: its enter (`in`) and leave (`out`) transitions, to run. */
interface AlpineTransition {
  in(before: () => void, after: () => void): void
  out(before: () => void, after: () => void): void
}

/** An element with `wire:transition`; `__compEntering` when a morph has just added it. */
type TransitionElement = HTMLElement & { __compEntering?: boolean; _x_transition?: AlpineTransition }

/** The x-transition form's elements in the page (those without `wire:show`), and those playing their leave transition. */
const started = new Set<TransitionElement>()
const leaving = new Set<TransitionElement>()

/**
 * `wire:transition` with Alpine's transition modifiers (`.opacity`,
 * `.scale.90`, `.duration.500ms`, `.delay.50ms`, `.origin.top`, `.in`,
 * `.out`), the class form `wire:transition:enter="..."`, or on an element
 * with `wire:show`, becomes Alpine's x-transition: the element plays it when
 * an update adds it and before an update removes it, or on the `wire:show`
 * toggle. The bare form is a view transition (features/transition).
 * Nothing plays when the user's system asks for reduced motion.
 */
export function transitionDirective(_component: PageComponent, el: Element, directive: Directive): void {
  const html = el as TransitionElement
  const shown = [...el.attributes].some((attribute) => /^wire:show\b/.test(attribute.name))
  // Users who asked their system for less motion get none: without x-transition, elements come and go at once.
  if ((!shown && !directive.arg && directive.modifiers.length === 0) || matchMedia('(prefers-reduced-motion: reduce)').matches) return
  bindVirtual(el, { [directive.raw.replace(/^wire:/, 'x-')]: directive.value })
  if (started.has(html) || leaving.has(html) || shown) return
  started.add(html)
  alpine().onElRemoved(el, () => started.delete(html))
  if (!html.__compEntering) return
  html.__compEntering = false
  // Alpine reads the x-transition just after this: the enter transition runs once it has.
  queueMicrotask(() => html._x_transition?.in(noop, noop))
}

const noop = () => {}

function finish(el: TransitionElement): void {
  leaving.delete(el)
  el.remove()
}

/** Marks what a morph adds, so its `wire:transition` elements (modifier and class forms) play their enter transition when they start. */
export function transitionAdded(node: Node): void {
  if (!(node instanceof HTMLElement)) return
  for (const el of [node, ...node.querySelectorAll('*')]) {
    if ([...el.attributes].some((attribute) => /^wire:transition[.:]/.test(attribute.name))) (el as TransitionElement).__compEntering = true
  }
}

/**
 * Call before a morph of `root`; call what it returns after. Elements still
 * leaving from an earlier update go at once; the `wire:transition` elements
 * the morph took out are put back where they stood to play their leave
 * transition, then go (the morph removes nodes in several ways, a keyed
 * move among them: looking afterwards catches them all).
 *
 * @example
 * ```ts
 * const settle = transitionsAround(el)
 * alpine().morph(el, html, options)
 * settle()
 * ```
 */
export function transitionsAround(root: Element): () => void {
  for (const el of leaving) if (root.contains(el)) finish(el)
  const spots: [TransitionElement, ParentNode, Node | null, Node | null][] = []
  for (const el of started) if (root.contains(el)) spots.push([el, el.parentNode!, el.previousSibling, el.nextSibling])
  return () => {
    for (const [el, parent, previous, next] of spots) {
      if (el.isConnected || !(parent as Node).isConnected || !el._x_transition) continue
      if (next?.parentNode === parent) parent.insertBefore(el, next)
      else if (previous?.parentNode === parent) parent.insertBefore(el, previous.nextSibling)
      else parent.appendChild(el)
      leaving.add(el)
      el._x_transition.out(noop, () => finish(el))
    }
  }
}
