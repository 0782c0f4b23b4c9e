import { alpine } from '../../../client/alpine.ts'
import { hook, interceptRequest, type OutgoingRequest } from '../../../client/interceptors.ts'
import { interceptMessage } from '../../../client/message-interceptors.ts'
import type { PageComponent } from '../../../client/page-component.ts'
import { components } from '../../../client/registry.ts'
import { wireProperty } from '../../../client/wire.ts'

/**
 * An event sent to one element, as Livewire's `$dispatchEl` and
 * `$dispatchRef`: a DOM event that does not bubble, and, when the element
 * is a component's root, a `$event` call on that component if it listens
 * for the name with `@on`.
 */
function dispatchAt(el: Element, name: string, params: Record<string, unknown>): void {
  el.dispatchEvent(new CustomEvent(name, { detail: params, bubbles: false }))
  const target = components.get(el.getAttribute('wire:id') ?? '')
  if (target?.memo.listeners?.includes(name)) void target.call('$event', [name, params])
}

// `$wire.$dispatchEl('.chart', 'resize', { width })`: to every element inside the component that matches the selector.
wireProperty('$dispatchEl', (component) => (selector: string, name: string, params: Record<string, unknown> = {}) => {
  for (const el of component.el.querySelectorAll(selector)) dispatchAt(el, name, params)
})

// `$wire.$dispatchRef('dialog', 'open')`: to the element with `wire:ref="dialog"` inside the component.
wireProperty('$dispatchRef', (component) => (ref: string, name: string, params: Record<string, unknown> = {}) => {
  const el = component.el.querySelector(`[wire\\:ref="${CSS.escape(ref)}"]`)
  if (!el) throw new Error(`$wire.$dispatchRef: ${component.name} has no element with wire:ref="${ref}".`)
  dispatchAt(el, name, params)
})

// `$wire.$effect(() => ...)`: Alpine's effect, re-run when the state it reads changes, and released with the component.
wireProperty('$effect', (component) => (callback: () => void) => {
  const Alpine = alpine()
  const effect = Alpine.effect(callback)
  Alpine.onElRemoved(component.el, () => Alpine.release(effect))
  return effect
})

// `$wire.$hook('commit', cb)` and `$wire.$hook('request', cb)`: comp.hook, heard for this component only.
wireProperty('$hook', (component) => (name: string, callback: Parameters<typeof hook>[1]) => hook(name, callback, component))

// `$wire.$interceptMessage(cb)` / `('save', cb)`: this component's part of each request (that carries `save`).
wireProperty(
  '$interceptMessage',
  (component) => (action: string | Parameters<typeof interceptMessage>[0], callback?: Parameters<typeof interceptMessage>[0]) =>
    typeof action === 'string' ? interceptMessage(callback!, component, action) : interceptMessage(action, component),
)

// `$wire.$interceptRequest(cb)` / `('save', cb)`: each request that carries this component (and a `save` call of it).
wireProperty('$interceptRequest', (component) => (action: string | RequestCallback, callback?: RequestCallback) => {
  const name = typeof action === 'string' ? action : undefined
  const heard = typeof action === 'string' ? callback : action
  if (typeof heard !== 'function') throw new TypeError('$interceptRequest needs a callback.')
  return interceptRequest((context) => {
    if (!context.request.components.includes(component)) return
    if (name !== undefined && !callsOf(context.request, component).includes(name)) return
    heard(context)
  })
})

type RequestCallback = Parameters<typeof interceptRequest>[0]

/** The actions a request carries for one component: its body is that component's update, or a bundle of them. */
function callsOf(request: OutgoingRequest, component: PageComponent): string[] {
  type Part = { fingerprint?: { id?: string }; calls?: Array<{ method: string }> }
  const payload = request.payload as Part & { components?: Part[] }
  const parts = payload.components ?? [payload]
  return parts.filter((part) => part.fingerprint?.id === component.id).flatMap((part) => (part.calls ?? []).map((call) => call.method))
}
