import { alpine } from './alpine.ts'
import type { PageComponent } from './page-component.ts'
import type { ToggledElement } from './directives/loading.ts'
import { applyEffects, applyWrapped } from './effects.ts'
import { markCurrentLinks } from './directives/current.ts'
import { transitionAdded, transitionsAround } from './directives/transition.ts'
import type { UpdateResponse } from './transport.ts'

/**
 * Applies an answer to its component, in the order the page needs:
 * state first (so bindings show the new values at once), then the HTML
 * (morphed: attributes patched, keyed children kept by `wire:key` /
 * `wire:id`, `wire:ignore` subtrees and child components left alone,
 * `wire:replace` ones put in fresh, Alpine state kept, `wire:transition`
 * elements in a view transition or played in and out); then the features' effects (an island's HTML, events to
 * other components and the page, the URL's query string, scripts,
 * redirects), each by the handler its feature registered.
 * `pending` are paths the user changed while the request was out: the
 * answer does not overwrite them.
 */
export function applyResponse(component: PageComponent, response: UpdateResponse, pending: Set<string>): Promise<void> {
  const { effects, serverMemo } = response
  component.memo = serverMemo as unknown as PageComponent['memo']
  for (const [key, value] of Object.entries(serverMemo.data)) {
    if (pending.has(key)) continue
    if (key in effects.data || !(key in component.data)) component.data[key] = structuredClone(value)
  }
  component.errors.bag = { ...effects.errors }

  // The HTML and the features' effects (islands, dispatches, the query string, scripts, redirects: features/client.ts),
  // through what features wrap them in: a view transition plays them a frame later.
  return applyWrapped(component, effects, () => {
    if (effects.html !== undefined) morphInto(component, component.el, effects.html, false)
    applyEffects(component, effects)
  })
}

/** Morphs `el` into `html`; with `childrenOnly`, `el` keeps its own attributes. */
export function morphInto(component: PageComponent, el: HTMLElement, html: string, childrenOnly: boolean): void {
  const settle = transitionsAround(el)
  alpine().morph(el, html, {
    key: (node) => node.getAttribute?.('wire:key') ?? node.getAttribute?.('wire:id') ?? undefined,
    updating(from, to, onlyChildren, skip, skipChildren) {
      if (!(from instanceof Element)) return
      // Bindings made from wire:* directives live on the element, not in its HTML: give them to the new version,
      // so the clone Alpine makes of it computes the same text and attributes and the patch keeps them.
      const virtual = (from as Element & { _x_virtualDirectives?: unknown })._x_virtualDirectives
      if (virtual) (to as Element & { _x_virtualDirectives?: unknown })._x_virtualDirectives = virtual
      if (from === el) {
        if (childrenOnly) onlyChildren()
        return
      }
      // Another component's root: it renders itself; the new HTML holds an empty placeholder for it.
      const id = from.getAttribute('wire:id')
      if (id && id !== component.id) return skip()
      if (from.hasAttribute('wire:ignore')) return skip()
      if (from.hasAttribute('wire:ignore.self')) onlyChildren()
      // wire:replace: the server's version is put in as new, so the browser state inside it (widgets, Alpine data) starts over.
      if (from.hasAttribute('wire:replace.self')) {
        from.replaceWith(to.cloneNode(true))
        return skip()
      }
      if (from.hasAttribute('wire:replace')) {
        from.replaceChildren(...[...to.childNodes].map((child) => child.cloneNode(true)))
        skipChildren()
      }
    },
    updated(from) {
      ;(from as ToggledElement).__compReapply?.()
    },
    added(node) {
      transitionAdded(node)
      // The root was replaced (its tag changed): the component lives on in the new element.
      if (node instanceof HTMLElement && node.getAttribute('wire:id') === component.id) component.el = node
    },
    lookahead: false,
  })
  settle()
  // The patch gave links the server's class: the current page's links get theirs back.
  markCurrentLinks(component.el)
}
