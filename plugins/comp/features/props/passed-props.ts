import { KilnError, type HttpContext } from '../../../../core/index.ts'
import { withRootAttributes } from '../../rendering/html-root.ts'
import type { RenderScope } from '../../rendering/render.ts'
import { publicProperties } from '../../state/state.ts'

/** Where a child's mount parameters carry its parent's `wire:model` binding (a symbol: no property can be named by it). */
export const BINDING = Symbol.for('kiln.comp.binding')

const PASSED = Symbol.for('kiln.comp.passed-props')
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype'])

/** A parent's `wire:model="path"` on a child's tag, with the parent's value of `path` at this render. */
export interface Binding {
  outer: string
  modifiers: string[]
  value: unknown
}

/** What a parent's render passed to a child it had rendered before. */
export interface Passed {
  params: Record<string, unknown>
  binding?: Binding
}

/**
 * A child's parameters as its parent's view wrote them, with a
 * `wire:model` (and its modifiers) taken out and resolved against the
 * parent's state: the child's modelable property starts from that value.
 *
 * @example
 * ```ts
 * childParams(scope, { 'wire:model': 'title', size: 3 }) // { params: { size: 3, [BINDING]: {...} }, binding: { outer: 'title', ... } }
 * ```
 */
export function childParams(parent: RenderScope, given: Record<string, unknown>): { params: Record<string | symbol, unknown>; binding?: Binding } {
  const params: Record<string | symbol, unknown> = {}
  let binding: Binding | undefined
  for (const [key, value] of Object.entries(given)) {
    if (!/^wire:model(\.|$)/.test(key)) {
      params[key] = value
      continue
    }
    if (typeof value !== 'string')
      throw new KilnError(`wire:model on a component names a property of ${parent.Class.name}, as text.`, { code: 'E_COMP_MODEL_UNKNOWN' })
    binding = { outer: value, modifiers: key.split('.').slice(1), value: readPath(parent, value) }
    params[BINDING] = binding
  }
  // What other features put on the tag under their own symbols (a block tag's body) goes on to the child.
  for (const symbol of Object.getOwnPropertySymbols(given)) params[symbol] = (given as Record<symbol, unknown>)[symbol]
  return { params, binding }
}

/** The parent's value at a dotted path of its public state. */
function readPath(parent: RenderScope, path: string): unknown {
  const segments = path.split('.')
  if (segments.some((segment) => FORBIDDEN.has(segment)) || !publicProperties(parent.component).includes(segments[0]!)) {
    throw new KilnError(`wire:model="${path}" on a component: ${parent.Class.name} has no public property "${segments[0]}".`, {
      code: 'E_COMP_MODEL_UNKNOWN',
    })
  }
  let value: unknown = parent.component
  for (const segment of segments) {
    if (value === null || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, segment)) return undefined
    value = (value as Record<string, unknown>)[segment]
  }
  return value
}

/**
 * Records, for this request, what a parent's render passed to a child it
 * rendered before (the child keeps its HTML in the parent's): when the
 * child's snapshot is in the same request, its reactive properties and
 * its binding take these values. Only the server's render writes here.
 *
 * @example
 * ```ts
 * passToChild(scope.ctx, previous.id, { params, binding })
 * ```
 */
export function passToChild(ctx: HttpContext | undefined, id: string, passed: Passed): void {
  if (!ctx) return
  let store = ctx.locals.get(PASSED) as Map<string, Passed> | undefined
  if (!store) ctx.locals.set(PASSED, (store = new Map()))
  store.set(id, passed)
}

/**
 * What a parent rendered earlier in this request passed to the component `id`.
 *
 * @example
 * ```ts
 * const passed = passedTo(c.run.ctx, c.run.id)
 * ```
 */
export function passedTo(ctx: HttpContext | undefined, id: string): Passed | undefined {
  return (ctx?.locals.get(PASSED) as Map<string, Passed> | undefined)?.get(id)
}

/**
 * A bound child's HTML with `wire:modelable` on its root: the browser ties
 * the child's modelable property to the parent's, both ways.
 *
 * @example
 * ```ts
 * bindRoot('<div>…</div>', 'todo-input', binding) // '<div wire:modelable="title">…</div>'
 * ```
 */
export function bindRoot(html: string, name: string, binding: Binding | undefined): string {
  if (!binding) return html
  const attribute = ['wire:modelable', ...binding.modifiers.filter((modifier) => /^[\w-]+$/.test(modifier))].join('.')
  return withRootAttributes(html, name, { [attribute]: binding.outer }, { check: false }).html
}
