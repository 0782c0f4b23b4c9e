import { bindVirtual } from '../alpine.ts'
import type { PageComponent } from '../page-component.ts'
import { runAction } from './actions.ts'
import type { Directive } from './parse.ts'

const ITEM = '[wire\\:sort\\:item]'

/** The item being dragged, from which list, and that list's `wire:sort:group` (lists of one group trade items). */
let dragging: { item: HTMLElement; from: HTMLElement; group: string | null } | undefined
/** Where the last press in a sortable list landed: a drag starts only from an item's handle, never from an ignored part. */
let pressed: Element | null = null

/**
 * `wire:sort="method"` on a list and `wire:sort:item="key"` on its items:
 * drag an item (HTML drag and drop) onto another to move it there; on drop
 * the list is reordered at once and `method(key, position)` is called with
 * the moved item's key and its new zero-based position. With
 * `wire:sort.order="method"`, `method(keys)` gets every key in the new order.
 * An item with a `wire:sort:handle` element drags only by it; a drag never
 * starts inside `wire:sort:ignore`. Lists with the same `wire:sort:group`
 * trade items: only the list the item is dropped into calls its method,
 * with its `wire:sort:group-id` as a third parameter.
 */
export function sortDirective(component: PageComponent, el: Element, directive: Directive): void {
  if (directive.arg === 'item') {
    // A binding, not a plain attribute: a morph copies the server's attributes (which lack it), and bindings survive it.
    bindVirtual(el, { ':draggable': () => 'true' })
    return
  }
  if (directive.arg) return
  const list = el as HTMLElement
  const group = () => list.getAttribute('wire:sort:group')
  const itemOf = (target: EventTarget | null, of: HTMLElement) => {
    const item = (target as Element | null)?.closest?.(ITEM) as HTMLElement | null
    return item && item.parentElement === of ? item : undefined
  }
  // Whether the dragged item may land in this list: its own, or another of the same group.
  const accepts = () => !!dragging && (dragging.from === list || (group() !== null && dragging.group === group()))
  list.addEventListener('pointerdown', (event) => (pressed = event.target as Element | null))
  list.addEventListener('dragstart', (event) => {
    const item = itemOf(event.target, list)
    if (!item) return
    const handle = [...item.querySelectorAll('[wire\\:sort\\:handle]')].find((found) => found.closest(ITEM) === item)
    const ignored = pressed?.closest('[wire\\:sort\\:ignore]')
    if ((handle && !handle.contains(pressed)) || (ignored && item.contains(ignored))) return event.preventDefault()
    dragging = { item, from: list, group: group() }
    event.dataTransfer?.setData('text/plain', item.getAttribute('wire:sort:item') ?? '')
    if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move'
  })
  list.addEventListener('dragover', (event) => {
    if (accepts() && (itemOf(event.target, list) || dragging!.from !== list)) event.preventDefault()
  })
  list.addEventListener('drop', (event) => {
    if (!accepts()) return
    const moved = dragging!.item
    const target = itemOf(event.target, list)
    dragging = undefined
    if (target === moved || (!target && moved.parentElement === list)) return
    event.preventDefault()
    // Dropped on an item: before or after it by the pointer's height; on the list itself (an empty one): at its end.
    const box = target?.getBoundingClientRect()
    list.insertBefore(moved, target && box ? (event.clientY > box.top + box.height / 2 ? target.nextSibling : target) : null)
    const items = [...list.querySelectorAll(`:scope > ${ITEM}`)]
    const groupId = list.getAttribute('wire:sort:group-id')
    const args = directive.modifiers.includes('order')
      ? [items.map((item) => item.getAttribute('wire:sort:item'))]
      : [moved.getAttribute('wire:sort:item'), items.indexOf(moved), ...(groupId !== null ? [groupId] : [])]
    const method = directive.value.trim()
    void runAction(component, list, `${method}(${args.map((arg) => JSON.stringify(arg)).join(', ')})`, directive.modifiers)
  })
  list.addEventListener('dragend', () => (dragging = undefined))
}
