import { bindVirtual } from '../alpine.ts'
import type { PageComponent } from '../page-component.ts'
import { duration, type Directive } from './parse.ts'

/** Binds `wire:model` on an element a feature handles itself; true when it did. */
export type ModelBinding = (component: PageComponent, el: Element, path: string) => boolean

const bindings: ModelBinding[] = []

/**
 * Lets a feature's browser half take `wire:model` on the elements it
 * handles (uploads: file inputs); the others get the usual binding.
 *
 * @example
 * ```ts
 * bindModel((component, el, path) => el instanceof HTMLInputElement && el.type === 'file' && watchFiles(component, el, path))
 * ```
 */
export function bindModel(binding: ModelBinding): void {
  bindings.push(binding)
}

/**
 * `wire:model="path"`: the element and the property follow each other
 * through Alpine's `x-model` (text, numbers, checkboxes, radios, selects).
 * When the server hears of it:
 *
 * - `wire:model`: with the next request (an action, another live field);
 * - `.live`: as the user types, once they pause for 150 ms (at once for
 *   checkboxes, radios and selects); `.live.debounce.500ms` sets the pause,
 *   `.live.throttle.500ms` sends at most once per 500 ms;
 * - `.change`: on `change`; `.blur`: the property and the server on blur;
 * - `.live.blur`: the property as the user types, the server on blur;
 * - `.deep`: also from events that bubble up from inside the element.
 *
 * A feature may bind some elements itself (`bindModel`): uploads take
 * `<input type="file">`.
 */
export function modelDirective(component: PageComponent, el: Element, directive: Directive): void {
  const path = directive.value
  const modifiers = directive.modifiers
  if (bindings.some((bind) => bind(component, el, path))) return
  const has = (modifier: string) => modifiers.includes(modifier)
  const live = has('live') || has('debounce') || has('throttle')
  const localOnBlur = has('blur') && !live
  const xModel = `x-model${localOnBlur ? '.blur' : ''}${has('number') ? '.number' : ''}${has('boolean') ? '.boolean' : ''}`
  bindVirtual(el, {
    [xModel]: () => ({
      get: () => component.get(path),
      set: (value: unknown) => void component.set(path, value, false),
    }),
  })
  // Typing fields wait for a pause, as Livewire does; a click on a checkbox or a pick in a select goes at once.
  const typing = el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && !['checkbox', 'radio'].includes(el.type))
  const wait = has('debounce') || has('throttle') ? duration(modifiers, 150) : typing ? 150 : 0
  let timer: ReturnType<typeof setTimeout> | undefined
  let last = 0
  const send = () => {
    last = Date.now()
    void component.commit()
  }
  const sync = () => {
    if (!has('throttle')) {
      clearTimeout(timer)
      if (wait) timer = setTimeout(send, wait)
      else send()
      return
    }
    // Throttled: at once if the last send is old enough, else once the window ends (with the value then).
    const left = last + wait - Date.now()
    if (left <= 0) send()
    else timer ??= setTimeout(() => ((timer = undefined), send()), left)
  }
  const own = (event: Event) => event.target === el || modifiers.includes('deep')
  // Without .live, .blur or .change the value waits for the next request.
  const on = has('blur') ? 'focusout' : has('change') ? 'change' : live ? 'input' : undefined
  if (on) el.addEventListener(on, (event) => own(event) && (on === 'input' ? sync() : send()))
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
