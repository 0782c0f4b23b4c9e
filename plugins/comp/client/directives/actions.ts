import { alpine } from '../alpine.ts'
import type { PageComponent } from '../page-component.ts'
import { parseAction } from '../literal.ts'
import { dispatchEvent } from '../registry.ts'
import { jsAction } from '../wire.ts'
import { duration, type Directive } from './parse.ts'

const KEYS: Record<string, string> = {
  enter: 'Enter',
  escape: 'Escape',
  esc: 'Escape',
  tab: 'Tab',
  space: ' ',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  backspace: 'Backspace',
  delete: 'Delete',
}

/** The island an element sits in (actions inside it render only that island). */
function islandOf(el: Element): string | null {
  const island = el.closest('[wire\\:island]')
  return island ? island.getAttribute('wire:island') : null
}

/**
 * `wire:confirm="Sure?"` asks with the browser's dialog; `wire:confirm.prompt="Type DELETE|DELETE"`
 * asks the user to type the text after `|`, and goes on only when it matches.
 */
function confirmed(el: Element): boolean {
  const ask = el.getAttribute('wire:confirm')
  if (ask !== null) return window.confirm(ask.replaceAll('\\n', '\n') || 'Are you sure?')
  const prompt = el.getAttribute('wire:confirm.prompt')
  if (prompt === null) return true
  const [question, expected] = prompt.replaceAll('\\n', '\n').split('|')
  if (!expected) {
    console.error('comp: wire:confirm.prompt needs the text to type after "|".')
    return false
  }
  return window.prompt(question) === expected
}

/**
 * Runs an action expression for an element: `save`, `add(1)`, `$set('open',
 * true)`, `$toggle('open')`, `$refresh`, `$dispatch('saved', {id: 1})`,
 * `$js.clear` (a `@js()` action, run in the browser),
 * asking `wire:confirm` first. Returns the call's promise (undefined when
 * the user declined).
 */
export function runAction(component: PageComponent, el: Element, expression: string, modifiers: string[], event?: Event) {
  if (!confirmed(el)) return undefined
  const { method, params } = parseAction(expression, event)
  const options = { renderless: modifiers.includes('renderless'), island: islandOf(el), trigger: el, async: modifiers.includes('async') }
  const scrollY = window.scrollY
  const restore = modifiers.includes('preserve-scroll') ? (result: unknown) => (window.scrollTo({ top: scrollY }), result) : (result: unknown) => result
  switch (method) {
    case '$set':
      return component.set(String(params[0]), params[1], true).then(restore)
    case '$toggle':
      return component.set(String(params[0]), !component.get(String(params[0])), true).then(restore)
    case '$dispatch':
      return void dispatchEvent(String(params[0]), (params[1] as Record<string, unknown>) ?? {}, component)
    case '$refresh':
      return component.call('$refresh', [], options).then(restore)
    default:
      // `$js.clear`: a JavaScript action (a @js() method, or one a @script defined) runs in the browser, with no request.
      if (method.startsWith('$js.')) {
        const action = jsAction(component, method.slice(4))
        if (action === undefined) throw new Error(`comp: ${component.name} has no JavaScript action "${method.slice(4)}".`)
        return void action(...params)
      }
      return component.call(method, params, options).then(restore)
  }
}

/**
 * `wire:click`, `wire:submit` and any `wire:<event>`: modifiers `.prevent`,
 * `.stop`, `.self`, `.once`, `.debounce.300ms`, `.throttle.300ms`, key
 * names for keyboard events (`wire:keydown.enter`), `.window` and
 * `.document` (listen there), `.outside` (a click outside the element),
 * `.renderless` and `.preserve-scroll`; and Alpine's `.passive` and
 * `.capture` (listener options), `.camel` (`wire:custom-event.camel` hears
 * `customEvent`: attribute names are lower case) and `.dot`
 * (`wire:custom-event.dot` hears `custom.event`).
 * `wire:submit` always prevents the form's own submission, and disables its
 * buttons while the request runs.
 */
export function eventAction(component: PageComponent, el: Element, directive: Directive): void {
  const { modifiers } = directive
  const eventName = eventNameOf(directive)
  const keys = modifiers.map((modifier) => KEYS[modifier]).filter(Boolean)
  let timer: ReturnType<typeof setTimeout> | undefined
  const wait = modifiers.includes('debounce') ? duration(modifiers, 250) : 0
  const throttle = modifiers.includes('throttle') ? duration(modifiers, 250) : 0
  let last = -Infinity
  const outside = modifiers.includes('outside')
  const target: EventTarget = modifiers.includes('window') ? window : modifiers.includes('document') || outside ? document : el
  const handler = (event: Event) => {
    if (modifiers.includes('self') && event.target !== el) return
    if (outside && el.contains(event.target as Node)) return
    if (throttle) {
      if (event.timeStamp - last < throttle) return
      last = event.timeStamp
    }
    if (keys.length > 0 && !keys.includes((event as KeyboardEvent).key)) return
    if (modifiers.includes('prevent') || eventName === 'submit') event.preventDefault()
    if (modifiers.includes('stop')) event.stopPropagation()
    const fire = () => {
      const expression = el.getAttribute(directive.raw) ?? directive.value
      const pending = runAction(component, el, expression, modifiers, event)
      if (eventName === 'submit' && pending) disableWhile(el as HTMLFormElement, pending)
    }
    if (!wait) return fire()
    clearTimeout(timer)
    timer = setTimeout(fire, wait)
  }
  const capture = modifiers.includes('capture')
  target.addEventListener(eventName, handler, { once: modifiers.includes('once'), passive: modifiers.includes('passive'), capture })
  // A listener on the window or the document outlives the element unless it is taken off with it.
  if (target !== el) alpine().onElRemoved(el, () => target.removeEventListener(eventName, handler, { capture }))
}

/** The event a `wire:<event>` hears: `.camel` and `.dot` rename a kebab-case name, as Alpine's `x-on` does. */
function eventNameOf({ name, modifiers }: Directive): string {
  if (modifiers.includes('camel')) return name.toLowerCase().replace(/-(\w)/g, (_, char: string) => char.toUpperCase())
  if (modifiers.includes('dot')) return name.replaceAll('-', '.')
  return name
}

function disableWhile(form: HTMLFormElement, pending: Promise<unknown>): void {
  const buttons = [...form.querySelectorAll<HTMLButtonElement>('button, input[type=submit]')].filter((button) => !button.disabled)
  for (const button of buttons) button.disabled = true
  void pending.finally(() => {
    for (const button of buttons) button.disabled = false
  })
}

/** `wire:init="method"`: called once, when the element starts. */
export function initAction(component: PageComponent, el: Element, directive: Directive): void {
  queueMicrotask(() => void runAction(component, el, directive.value, directive.modifiers))
}

/**
 * `wire:poll` (every 2 s) or `wire:poll.5s="method"` (default `$refresh`):
 * paused while the browser is offline, and dropped while another request of
 * the component is in flight. While the tab is in the background it polls
 * one time in 20 (`.keep-alive` polls as usual); `.visible` polls only
 * while the element is in the viewport.
 */
export function pollAction(component: PageComponent, el: Element, directive: Directive): void {
  const { modifiers, raw } = directive
  const keepAlive = modifiers.includes('keep-alive')
  let skipped = 0
  const interval = setInterval(
    () => {
      skipped = document.hidden && !keepAlive ? skipped + 1 : 0
      if (skipped % 20 || !navigator.onLine || !el.isConnected || !el.hasAttribute(raw)) return
      if (modifiers.includes('visible') && !inViewport(el)) return
      const { method, params } = parseAction(el.getAttribute(raw) || '$refresh')
      void component.call(method, params, { poll: true, island: islandOf(el) })
    },
    duration(modifiers, 2000),
  )
  alpine().onElRemoved(el, () => clearInterval(interval))
}

function inViewport(el: Element): boolean {
  const box = el.getBoundingClientRect()
  return box.bottom > 0 && box.right > 0 && box.top < window.innerHeight && box.left < window.innerWidth
}

/** `wire:intersect="method"`: called when the element scrolls into view; `.once`, `.half`, `.full`. */
export function intersectAction(component: PageComponent, el: Element, directive: Directive): void {
  const { modifiers } = directive
  const threshold = modifiers.includes('full') ? 1 : modifiers.includes('half') ? 0.5 : 0
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting || entry.intersectionRatio < threshold) continue
        void runAction(component, el, el.getAttribute(directive.raw) ?? directive.value, modifiers)
        if (modifiers.includes('once')) observer.disconnect()
      }
    },
    { threshold },
  )
  observer.observe(el)
  alpine().onElRemoved(el, () => observer.disconnect())
}
