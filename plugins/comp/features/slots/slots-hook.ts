import type { ComponentHook, ComponentContext } from '../../lifecycle/component-hook.ts'
import { VIEW_TAG, type ViewTag } from '../../component-manager.ts'
import { publicProperties } from '../../state/state.ts'
import type { PassedSlots } from './slots-feature.ts'
import { tagAttributes } from './root-attributes.ts'
import { keepState, passedSlots, renderSlots, SLOTS, stateOf, type SlotHtml } from './slot-state.ts'

/** What the snapshot keeps: the slot names and their parent, and the attributes (signed with the rest of the memo). */
interface SlotMemo {
  slots?: { names: string[]; parent?: string }
  attributes?: Record<string, string | true>
}

/**
 * The lifecycle side of slots and attributes: a child takes its tag's
 * slots and attributes when it mounts and keeps them in its snapshot (the
 * slots' names, not their HTML: the browser keeps that); a parent's answer
 * carries the slots its render gave the children it rendered before.
 *
 * @example
 * ```ts
 * const FEATURES = [() => import('./slots/slots-hook.ts').then((m) => m.slots)]
 * ```
 */
export const slots: ComponentHook = {
  name: 'slots',
  mount(c, params) {
    const given = params as Record<string | symbol, unknown>
    const tag = given[VIEW_TAG] as ViewTag | undefined
    // Only a tag in a view has attributes: a mount from code or a route (its `id` parameter) puts none on the root.
    if (!tag) return
    // A tag in a component's view passes its rendered slots; one in a page's view (no parent component), its block.
    const passed = (given[SLOTS] as PassedSlots | undefined) ?? (tag.block ? { slots: renderSlots(tag.block) } : undefined)
    const attributes = tagAttributes(params, new Set(publicProperties(c.component)))
    const keep = (html?: SlotHtml) => keepState(c.component, { names: Object.keys(html ?? {}), parent: passed?.parent, html, attributes })
    if (passed) return passed.slots.then(keep)
    if (Object.keys(attributes).length > 0) keep()
  },
  hydrate(c, memo) {
    const { slots: given, attributes } = memo as SlotMemo
    if (given || attributes) keepState(c.component, { names: given?.names ?? [], parent: given?.parent, attributes: attributes ?? {} })
  },
  dehydrate(c) {
    const state = stateOf(c.component)
    if (state?.names.length) c.memo.slots = state.parent ? { names: state.names, parent: state.parent } : { names: state.names }
    if (state && Object.keys(state.attributes).length > 0) c.memo.attributes = state.attributes
    if (!c.mounting) return withChildSlots(c)
  },
}

/** The slots this render gave the children the component rendered before, for the browser to put in them. */
function withChildSlots(c: ComponentContext): Promise<void> | undefined {
  const pending = passedSlots(c.run.ctx, c.run.id)
  if (!pending) return undefined
  return pending.then((slots) => {
    c.effects.slots = slots
  })
}
