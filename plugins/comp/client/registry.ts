import type { PageComponent } from './page-component.ts'

/** The components of the page, by id. */
export const components = new Map<string, PageComponent>()

/** Names the component an element belongs to when it is not its closest root's, or undefined to leave it to that rule. */
export type ElementOwner = (el: Element) => string | undefined

const owners: ElementOwner[] = []

/**
 * Lets a feature say which component an element belongs to when that is not
 * the closest root (a slot's content is its parent's, inside the child's
 * element).
 *
 * @example
 * ```ts
 * claimElements((el) => (el.hasAttribute('data-owner') ? el.getAttribute('data-owner')! : undefined))
 * ```
 */
export function claimElements(owner: ElementOwner): void {
  if (!owners.includes(owner)) owners.push(owner)
}

/** The component an element belongs to: its closest root with `wire:id`, unless a feature claims the element. */
export function closestComponent(el: Element | null): PageComponent | undefined {
  if (el)
    for (const owner of owners) {
      const id = owner(el)
      if (id !== undefined && components.has(id)) return components.get(id)
    }
  const root = el?.closest('[wire\\:id]')
  return root ? components.get(root.getAttribute('wire:id')!) : undefined
}

/**
 * An event from a component (`this.dispatch()` on the server, `$dispatch` in
 * the browser): a DOM event that bubbles from the component's element (or
 * the window) for browser listeners, and a `$event` call on every component
 * of the page that listens for it with `@on` (only those of `to`, or only
 * the sender with `self`), except those a bundled request already reached
 * (`delivered`).
 */
export function dispatchEvent(
  name: string,
  params: Record<string, unknown>,
  from?: PageComponent,
  options: { to?: string; self?: true; delivered?: string[] } = {},
): void {
  const target = from?.el.isConnected ? from.el : window
  target.dispatchEvent(new CustomEvent(name, { detail: params, bubbles: true, composed: true }))
  for (const component of components.values()) {
    if (options.self && component !== from) continue
    if (options.to && component.name !== options.to) continue
    if (!component.memo.listeners?.includes(name)) continue
    // A bundled request already ran this component's listeners for it.
    if (options.delivered?.includes(component.id)) continue
    void component.call('$event', [name, params])
  }
}
