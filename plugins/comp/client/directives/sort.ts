import type { PageComponent } from '../page-component.ts'
import { runAction } from './actions.ts'
import type { Directive } from './parse.ts'

/**
 * `wire:sort="method"` on a list and `wire:sort:item="id"` on its items:
 * drag an item (HTML drag and drop) onto another to move it there; on drop
 * the list is reordered at once and `method(ids)` is called with the item
 * ids in their new order.
 */
export function sortDirective(component: PageComponent, el: Element, directive: Directive): void {
  if (directive.arg === 'item') {
    el.setAttribute('draggable', 'true')
    return
  }
  const list = el as HTMLElement
  let dragged: HTMLElement | undefined
  const itemOf = (target: EventTarget | null) => {
    const item = (target as Element | null)?.closest?.('[wire\\:sort\\:item]') as HTMLElement | null
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
    if (!dragged || !target || target === dragged) return
    event.preventDefault()
    const box = target.getBoundingClientRect()
    const after = event.clientY > box.top + box.height / 2
    list.insertBefore(dragged, after ? target.nextSibling : target)
    dragged = undefined
    const order = [...list.querySelectorAll(':scope > [wire\\:sort\\:item]')].map((item) => item.getAttribute('wire:sort:item'))
    void runAction(component, list, `${list.getAttribute('wire:sort') ?? directive.value}(${JSON.stringify(order)})`, directive.modifiers)
  })
  list.addEventListener('dragend', () => (dragged = undefined))
}
