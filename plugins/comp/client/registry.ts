import type { PageComponent } from './page-component.ts'

/** The components of the page, by id. */
export const components = new Map<string, PageComponent>()

/** The component an element belongs to: its closest root with `wire:id`. */
export function closestComponent(el: Element | null): PageComponent | undefined {
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
