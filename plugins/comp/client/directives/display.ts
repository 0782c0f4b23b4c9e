import { alpine, bindVirtual } from '../alpine.ts'
import type { PageComponent } from '../page-component.ts'
import { network } from '../network.ts'
import { targetsOf, type Directive } from './parse.ts'
import { toggled } from './loading.ts'

/**
 * `wire:text="expression"`: the element's text follows an Alpine expression
 * over the component's state (`name`, `name.toUpperCase()`, `$wire.count`).
 */
export function textDirective(_component: PageComponent, el: Element, directive: Directive): void {
  bindVirtual(el, { 'x-text': directive.value })
}

/** `wire:show="expression"`: the element shows while the expression is truthy (`open`, `!open`, `title.length > 2`). */
export function showDirective(_component: PageComponent, el: Element, directive: Directive): void {
  bindVirtual(el, { 'x-show': directive.value })
}

/**
 * `wire:bind:<attr>="expression"`: a reactive attribute. The expression is
 * Alpine's, evaluated with the component's state in scope and `$wire`.
 */
export function bindDirective(_component: PageComponent, el: Element, directive: Directive): void {
  bindVirtual(el, { [`:${directive.arg}`]: directive.value })
}

/** `wire:dirty`: while the user's changes have not been through the server yet (of `wire:target` properties, when given). */
export function dirtyDirective(component: PageComponent, el: Element, directive: Directive): void {
  const targets = targetsOf(el)
  const model = el.getAttribute('wire:model') ?? [...el.attributes].find((a) => a.name.startsWith('wire:model'))?.value
  const watched = targets.length > 0 ? targets : model ? [model] : []
  toggled(el, directive, () => {
    const dirty = Object.keys(component.status.dirty)
    return watched.length === 0 ? dirty.length > 0 : dirty.some((path) => watched.some((target) => path === target || path.startsWith(`${target}.`)))
  })
}

/** `wire:offline` and `wire:online`: shown (or classed, or attributed) only while the browser is offline, or online. */
export function connectivityDirective(_component: PageComponent, el: Element, directive: Directive): void {
  const wantOnline = directive.name === 'online'
  toggled(el, directive, () => network.online === wantOnline)
}

/** `wire:ref="name"`: the element as `$el.__compRefs.name` on the component's root (and `$wire.$refs.name`). */
export function refDirective(component: PageComponent, el: Element, directive: Directive): void {
  const root = component.el as HTMLElement & { __compRefs?: Record<string, Element> }
  root.__compRefs ??= {}
  root.__compRefs[directive.value] = el
  alpine().onElRemoved(el, () => {
    if (root.__compRefs?.[directive.value] === el) delete root.__compRefs[directive.value]
  })
}
