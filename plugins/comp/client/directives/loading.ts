import { alpine } from '../alpine.ts'
import type { PageComponent } from '../page-component.ts'
import { duration, targetsOf, type Directive } from './parse.ts'

/** Livewire's named delays: `wire:loading.delay.short` and the like (milliseconds). */
const DELAYS = new Map(Object.entries({ shortest: 50, shorter: 100, short: 150, long: 300, longer: 500, longest: 1000 }))

/**
 * Toggles an element while `active()` holds: shows it (hidden otherwise), or
 * with `.remove` hides it; `.class="a b"` adds classes, `.attr="disabled"`
 * adds an attribute instead; `.delay` waits 200 ms before showing (or a
 * named delay, or `.delay.400ms`).
 */
export function toggled(el: Element, directive: Directive, active: () => boolean): void {
  const { modifiers, value } = directive
  const html = el as HTMLElement
  const remove = modifiers.includes('remove')
  const mode = modifiers.includes('class') ? 'class' : modifiers.includes('attr') ? 'attr' : 'display'
  const delay = modifiers.includes('delay') ? (DELAYS.get(modifiers.find((m) => DELAYS.has(m))!) ?? duration(modifiers, 200)) : 0
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
