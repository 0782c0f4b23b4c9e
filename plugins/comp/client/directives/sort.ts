import { bindVirtual } from '../alpine.ts'
import type { PageComponent } from '../page-component.ts'
import { runAction } from './actions.ts'
import type { Directive } from './parse.ts'

const ITEM = '[wire\\:sort\\:item]'

/**
 * `wire:sort="method"` on a list and `wire:sort:item="key"` on its items:
 * drag an item (HTML drag and drop) onto another to move it there; on drop
 * the list is reordered at once and `method(key, position)` is called with
 * the moved item's key and its new zero-based position. With
 * `wire:sort.order="method"`, `method(keys)` gets every key in the new order.
 */
export function sortDirective(component: PageComponent, el: Element, directive: Directive): void {
  if (directive.arg === 'item') {
    // A binding, not a plain attribute: a morph copies the server's attributes (which lack it), and bindings survive it.
    bindVirtual(el, { ':draggable': () => 'true' })
    return
  }
  if (directive.arg) return
  const list = el as HTMLElement
  let dragged: HTMLElement | undefined
  const itemOf = (target: EventTarget | null) => {
    const item = (target as Element | null)?.closest?.(ITEM) as HTMLElement | null
    return item && item.parentElement === list ? item : undefined
  }
  list.addEventListener('dragstart', (event) => {
    dragged = itemOf(event.target)
    if (!dragged) return
    event.dataTransfer?.setData('text/plain', dragged.getAttribute('wire:sort:item') ?? '')
    if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move'
  })
  list.addEventListener('dragover', (event) => {
    if (dragged && itemOf(event.target)) event.preventDefault()
  })
  list.addEventListener('drop', (event) => {
    const target = itemOf(event.target)
    const moved = dragged
    dragged = undefined
    if (!moved || !target || target === moved) return
    event.preventDefault()
    const box = target.getBoundingClientRect()
    list.insertBefore(moved, event.clientY > box.top + box.height / 2 ? target.nextSibling : target)
    const items = [...list.querySelectorAll(`:scope > ${ITEM}`)]
    const args = directive.modifiers.includes('order')
      ? [items.map((item) => item.getAttribute('wire:sort:item'))]
      : [moved.getAttribute('wire:sort:item'), items.indexOf(moved)]
    const method = directive.value.trim()
    void runAction(component, list, `${method}(${args.map((arg) => JSON.stringify(arg)).join(', ')})`, directive.modifiers)
  })
  list.addEventListener('dragend', () => (dragged = undefined))
}
