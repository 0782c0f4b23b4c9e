import Handlebars from 'handlebars'
import { KilnError, withAsyncHelpers, type HttpContext } from '../../../../core/index.ts'
import type { ChildBlock } from '../../component-manager.ts'
import type { Component } from '../../component.ts'

/** Slots by name (`default` for the body outside any `{{#slot}}`), as the parent rendered them. */
export type SlotHtml = Record<string, string>

/** What a child keeps of its tag: the slots it was given, whose they are, and the attributes for its root. */
export interface SlotState {
  /** The names of the slots given; kept in the snapshot, so `hasSlot` answers on every render. */
  names: string[]
  /** The parent component whose view wrote the slots (their `wire:` directives are its). */
  parent?: string
  /** The slots' HTML: known when the parent rendered them (the first render); else the browser keeps what it has. */
  html?: SlotHtml
  /** The attributes the parent passed that are not the child's props. */
  attributes: Record<string, string | true>
  /** Set while a render placed the attributes itself with `{{attributes}}`. */
  placed?: boolean
  /** The slots a render placed with `{{slot}}`, while it renders. */
  shown?: Set<string>
}

/** Where a child's mount parameters carry the slots its tag rendered (a symbol: no parameter can be named by it). */
export const SLOTS = Symbol.for('kiln.comp.slots')

/** Where a `{{#comp}}` body's data frame keeps the named slots its `{{#slot}}` blocks render. */
export const COLLECTOR = 'kilnSlots'

const states = new WeakMap<Component, SlotState>()

/** A component's slots and attributes, if its tag gave any. @example `stateOf(scope.component)?.names` */
export function stateOf(component: Component): SlotState | undefined {
  return states.get(component)
}

/** Keeps a component's slots and attributes for its renders. @example `keepState(c.component, state)` */
export function keepState(component: Component, state: SlotState): void {
  states.set(component, state)
}

/** The named slots a `{{#comp}}` body's `{{#slot}}` blocks rendered, each its own pending render. */
export type SlotCollector = Map<string, Promise<string>>

const NAME = /^[A-Za-z][\w-]{0,63}$/

/**
 * A slot name as a template wrote it, or a `KilnError` (a name goes into
 * HTML comments and the snapshot: letters, digits, `_` and `-` only).
 *
 * @example
 * ```ts
 * slotName('footer') // 'footer'
 * ```
 */
export function slotName(name: unknown): string {
  if (typeof name === 'string' && NAME.test(name)) return name
  throw new KilnError(`A slot name is a word of letters, digits, "_" and "-" (got ${JSON.stringify(String(name)).slice(0, 60)}).`, {
    code: 'E_COMP_SLOT_NAME',
  })
}

/**
 * Renders a `{{#comp}}` tag's body into its slots: the named ones its
 * `{{#slot "name"}}` blocks hold, and `default`, the rest (when it holds
 * more than white space). Each renders in a collector of its own, so
 * components nested in a slot (the parent's children) are awaited with it.
 *
 * @example
 * ```ts
 * const slots = await renderSlots(block) // { default: '<p>Hi</p>', footer: '<button>…</button>' }
 * ```
 */
export async function renderSlots(block: ChildBlock): Promise<SlotHtml> {
  const named: SlotCollector = new Map()
  const frame = Handlebars.createFrame(block.data ?? {}) as Record<string, unknown>
  frame[COLLECTOR] = named
  const body = await withAsyncHelpers(() => block.render(frame))
  const slots: SlotHtml = {}
  // An empty {{#slot}} leaves the block markers of the parent's template side by side: that is no content.
  const rest = body.replaceAll(EMPTY_BLOCK, '')
  if (rest.trim() !== '') slots.default = rest
  for (const [name, html] of named) slots[name] = await html
  return slots
}

const EMPTY_BLOCK = '<!--[if BLOCK]><![endif]--><!--[if ENDBLOCK]><![endif]-->'

/**
 * A slot's HTML between the comments that tell the browser whose it is: a
 * re-render of the child sends the comments alone and the browser keeps
 * the content it has; the parent's re-render sends new content.
 *
 * @example
 * ```ts
 * slotMarkers('footer', 'a1', '<b>x</b>') // '<!--[if SLOT:footer:a1]><![endif]--><b>x</b><!--[if ENDSLOT:footer]><![endif]-->'
 * ```
 */
export function slotMarkers(name: string, parent: string | undefined, html: string): string {
  return `<!--[if SLOT:${name}:${parent ?? ''}]><![endif]-->${html}<!--[if ENDSLOT:${name}]><![endif]-->`
}

const PENDING = Symbol.for('kiln.comp.slots.pending')

/**
 * Records, for this request, the slots a parent's render gave a child it
 * rendered before (the child keeps its own HTML): the parent's answer
 * carries them, and the browser puts them in the child.
 *
 * @example
 * ```ts
 * passSlots(ctx, parent.id, child.id, renderSlots(block))
 * ```
 */
export function passSlots(ctx: HttpContext | undefined, parent: string, child: string, slots: Promise<SlotHtml>): void {
  if (!ctx) return
  let byParent = ctx.locals.get(PENDING) as Map<string, Map<string, Promise<SlotHtml>>> | undefined
  if (!byParent) ctx.locals.set(PENDING, (byParent = new Map()))
  let children = byParent.get(parent)
  if (!children) byParent.set(parent, (children = new Map()))
  children.set(child, slots)
}

/**
 * The slots a parent's render in this request gave the children it rendered before, by child id.
 *
 * @example
 * ```ts
 * const slots = await passedSlots(ctx, c.run.id) // { b2: { default: '<p>2</p>' } }
 * ```
 */
export function passedSlots(ctx: HttpContext | undefined, parent: string): Promise<Record<string, SlotHtml>> | undefined {
  const children = (ctx?.locals.get(PENDING) as Map<string, Map<string, Promise<SlotHtml>>> | undefined)?.get(parent)
  if (!children) return undefined
  // A child whose tag gave no slot (an empty block) gets nothing.
  return Promise.all([...children].map(async ([id, slots]) => [id, await slots] as const)).then((entries) =>
    Object.fromEntries(entries.filter(([, slots]) => Object.keys(slots).length > 0)),
  )
}

/**
 * The child's first render with the slots its view did not place (inside an
 * `{{#if}}` that is false then) kept in `<template wire:slot="name">`
 * elements at the end of its root: the browser takes them from there and
 * shows them when the child places the slot later.
 *
 * @example
 * ```ts
 * withUnshownSlots('<div></div>', { names: ['default'], html: { default: '<p>x</p>' }, attributes: {} }, new Set())
 * // '<div><template wire:slot="default"><p>x</p></template></div>'
 * ```
 */
export function withUnshownSlots(html: string, state: SlotState, shown: ReadonlySet<string>): string {
  if (!state.html) return html
  const kept = state.names
    .filter((name) => !shown.has(name))
    .map((name) => `<template wire:slot="${name}">${state.html![name] ?? ''}</template>`)
    .join('')
  if (kept === '') return html
  const end = /<\/[A-Za-z][\w:.-]*\s*>(?:\s|<!--[\s\S]*?-->)*$/.exec(html)
  return end ? html.slice(0, end.index) + kept + html.slice(end.index) : html
}
