import { alpine, bindVirtual } from '../alpine.ts'
import type { PageComponent } from '../page-component.ts'
import { network } from '../network.ts'
import { duration, targetsOf, type Directive } from './parse.ts'

/** `wire:text="path"`: the element's text follows the property. */
export function textDirective(component: PageComponent, el: Element, directive: Directive): void {
  bindVirtual(el, { 'x-text': () => component.get(directive.value) ?? '' })
}

/** `wire:show="path"`: the element shows while the property is truthy. */
export function showDirective(component: PageComponent, el: Element, directive: Directive): void {
  bindVirtual(el, { 'x-show': () => Boolean(component.get(directive.value)) })
}

/**
 * `wire:bind:<attr>="expression"`: a reactive attribute. The expression is
 * Alpine's, evaluated with the component's state in scope and `$wire`.
 */
export function bindDirective(_component: PageComponent, el: Element, directive: Directive): void {
  bindVirtual(el, { [`:${directive.arg}`]: directive.value })
}

/**
 * Toggles an element while `active()` holds: shows it (hidden otherwise), or
 * with `.remove` hides it; `.class="a b"` adds classes, `.attr="disabled"`
 * adds an attribute instead; `.delay` waits 200 ms before showing.
 */
function toggled(el: Element, directive: Directive, active: () => boolean): void {
  const { modifiers, value } = directive
  const html = el as HTMLElement
  const remove = modifiers.includes('remove')
  const mode = modifiers.includes('class') ? 'class' : modifiers.includes('attr') ? 'attr' : 'display'
  const delay = modifiers.includes('delay')
    ? duration(
        modifiers.filter((m) => m !== 'delay'),
        200,
      )
    : 0
  const display = html.style.display === 'none' ? '' : html.style.display
  let timer: ReturnType<typeof setTimeout> | undefined
  let applied = false
  const apply = (on: boolean) => {
    applied = on
    const visible = remove ? !on : on
    if (mode === 'class') for (const name of value.split(/\s+/).filter(Boolean)) html.classList.toggle(name, remove ? !on : on)
    else if (mode === 'attr') {
      if (remove ? !on : on) html.setAttribute(value || 'disabled', '')
      else html.removeAttribute(value || 'disabled')
    } else html.style.display = visible ? display : 'none'
  }
  const Alpine = alpine()
  const effect = Alpine.effect(() => {
    const on = active()
    clearTimeout(timer)
    if (on && delay) timer = setTimeout(() => apply(true), delay)
    else apply(on)
  })
  Alpine.onElRemoved(el, () => Alpine.release(effect))
  // A morph gives the element the server's attributes, which know nothing of this state: it is put back after each one.
  ;(el as ToggledElement).__compReapply = () => apply(applied)
}

/** An element whose display a wire:* state controls: the morph calls `__compReapply` after patching it. */
export type ToggledElement = Element & { __compReapply?: () => void }

/** `wire:loading`: while the component's request runs (only for `wire:target` actions or properties, when given). */
export function loadingDirective(component: PageComponent, el: Element, directive: Directive): void {
  const targets = targetsOf(el)
  toggled(el, directive, () => component.status.loading && (targets.length === 0 || component.status.targets.some((target) => targets.includes(target))))
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
