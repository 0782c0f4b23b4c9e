import { bindVirtual } from '../alpine.ts'
import type { PageComponent } from '../page-component.ts'
import { upload } from '../../features/uploads/client/upload.ts'
import { duration, type Directive } from './parse.ts'

/**
 * `wire:model="path"`: the element and the property follow each other
 * through Alpine's `x-model` (text, numbers, checkboxes, radios, selects),
 * and the server hears of it:
 *
 * - `wire:model`: on `change`;
 * - `.live`: as the user types, merged with other changes within `coalesce_ms`;
 * - `.debounce.300ms`: as the user types, once they pause;
 * - `.blur`: the property and the server on blur;
 * - `.live.blur`: the property as the user types, the server on blur;
 * - `.deep`: also from events that bubble up from inside the element.
 *
 * On `<input type="file">` it uploads the chosen files into the property.
 */
export function modelDirective(component: PageComponent, el: Element, directive: Directive): void {
  const path = directive.value
  const modifiers = directive.modifiers
  if (el instanceof HTMLInputElement && el.type === 'file') {
    el.addEventListener('change', () => void (el.files && upload(component, path, el.files, el)))
    return
  }
  const live = modifiers.includes('live') || modifiers.includes('debounce')
  const blur = modifiers.includes('blur')
  const localOnBlur = blur && !live
  const xModel = `x-model${localOnBlur ? '.blur' : ''}${modifiers.includes('number') ? '.number' : ''}${modifiers.includes('boolean') ? '.boolean' : ''}`
  bindVirtual(el, {
    [xModel]: () => ({
      get: () => component.get(path),
      set: (value: unknown) => void component.set(path, value, false),
    }),
  })
  const wait = modifiers.includes('debounce') ? duration(modifiers, 150) : 0
  let timer: ReturnType<typeof setTimeout> | undefined
  const sync = () => {
    if (!wait) return void component.commit()
    clearTimeout(timer)
    timer = setTimeout(() => void component.commit(), wait)
  }
  const own = (event: Event) => event.target === el || modifiers.includes('deep')
  if (blur) el.addEventListener('focusout', (event) => own(event) && sync())
  else if (live) el.addEventListener('input', (event) => own(event) && sync())
  else el.addEventListener('change', (event) => own(event) && sync())
  if (modifiers.includes('deep')) {
    // Custom inputs inside the element report through bubbling events: their detail, else their value.
    const fromChild = (event: Event) => {
      if (event.target === el) return
      const source = event as CustomEvent
      const value =
        source.detail !== undefined && source.detail !== null && !(typeof source.detail === 'number' && event.type === 'input')
          ? source.detail
          : (event.target as HTMLInputElement).value
      void component.set(path, value, false)
    }
    el.addEventListener('input', fromChild)
    el.addEventListener('change', fromChild)
  }
}
