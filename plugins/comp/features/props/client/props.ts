import { alpine } from '../../../client/alpine.ts'
import type { Directive } from '../../../client/directives/parse.ts'
import { duration } from '../../../client/directives/parse.ts'
import { directive } from '../../../client/directives/index.ts'
import type { PageComponent } from '../../../client/page-component.ts'
import { closestComponent, components } from '../../../client/registry.ts'
import { extendRequests } from '../../../client/request-queue.ts'

/**
 * True when a component takes values from a parent (`@reactive()`
 * properties, a `wire:model` binding) and one of its parent components is
 * among `ids`, the components of a request: its snapshot then goes along,
 * so the parent's render reaches it in the same request.
 *
 * @example
 * ```ts
 * if (followsParent(child, new Set([parent.id]))) take(child)
 * ```
 */
function followsParent(component: PageComponent, ids: Set<string>): boolean {
  if (!component.memo.props && !component.memo.bindings) return false
  for (let parent = closestComponent(component.el.parentElement); parent; parent = closestComponent(parent.el.parentElement))
    if (ids.has(parent.id)) return true
  return false
}

/**
 * `wire:modelable="title"` on a bound child's root (the server puts it
 * there for a parent's `wire:model="title"`): the child's `@modelable()`
 * property and the parent's `title` follow each other in the browser. A
 * change in the child sets the parent's property, sent with the parent's
 * next request (`.live`: at once, `.live.debounce.300ms` after a pause); a
 * change in the parent sets the child's, sent with the child's next request.
 */
function modelableDirective(child: PageComponent, el: Element, directive: Directive): void {
  const parent = closestComponent(el.parentElement)
  const inner = (child.memo.bindings as { inner?: string } | undefined)?.inner
  if (el !== child.el || !parent || !inner) return
  const outer = directive.value
  const { modifiers } = directive
  const live = modifiers.includes('live')
  const wait = modifiers.includes('debounce') ? duration(modifiers, 150) : 0
  const Alpine = alpine()
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)
  const copy = (value: unknown) => (value === undefined ? value : structuredClone(Alpine.raw(value)))
  let timer: ReturnType<typeof setTimeout> | undefined
  // Each side watches its own value as text (deep changes count) and hands a copy to the other when they differ.
  const toParent = Alpine.watch(
    () => JSON.stringify(child.get(inner)),
    () => {
      const value = child.get(inner)
      if (same(value, parent.get(outer))) return
      void parent.set(outer, copy(value), false)
      if (!live) return
      clearTimeout(timer)
      timer = setTimeout(() => void parent.commit(), wait)
    },
  )
  const toChild = Alpine.watch(
    () => JSON.stringify(parent.get(outer)),
    () => {
      const value = parent.get(outer)
      if (!same(value, child.get(inner))) void child.set(inner, copy(value), false)
    },
  )
  Alpine.onElRemoved(el, () => {
    // The root may only have been replaced (its tag changed): the binding ends with the component.
    queueMicrotask(() => {
      if (components.get(child.id) === child) return
      toParent()
      toChild()
    })
  })
}

/**
 * The messages of a request in page order, so a parent runs before the
 * components inside it: a child's reactive props come from its parent's
 * render earlier in the same request.
 *
 * @example
 * ```ts
 * const ordered = parentsFirst(messages)
 * ```
 */
function parentsFirst<T extends { component: PageComponent }>(messages: T[]): T[] {
  return [...messages].sort((a, b) => (a.component.el.compareDocumentPosition(b.component.el) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1))
}

// A child that takes values from its parent goes along with the parent's requests, after it; the server puts
// `wire:modelable` on the root of a child its parent binds with `wire:model`.
extendRequests({ joins: followsParent, order: parentsFirst })
directive('modelable', modelableDirective)
