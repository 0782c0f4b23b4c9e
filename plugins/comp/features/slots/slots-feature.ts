import type { FeatureProvider } from '../../extension/feature-provider.ts'
import { VIEW_TAG, type ViewTag } from '../../component-manager.ts'
import { withPassedAttributes } from './root-attributes.ts'
import { registerSlotHelpers } from './slot-helpers.ts'
import { passSlots, renderSlots, SLOTS, stateOf, withUnshownSlots } from './slot-state.ts'

/** What a child's tag in a parent component's view passes on to its mount: the slots, and whose they are. */
export interface PassedSlots {
  parent?: string
  slots: ReturnType<typeof renderSlots>
}

/**
 * Slots and attributes (Livewire's `{{ $slot }}`, named slots and
 * `$attributes`): a `{{#comp "card"}}…{{/comp}}` block passes HTML into
 * the child, which places it with `{{slot}}` and `{{slot "name"}}`; the
 * passable attributes of a tag (`class`, `data-*`, `aria-*`…) that are not
 * the child's props go on its root, or where its view puts
 * `{{attributes}}`. A parent that renders again sends the slots of the
 * children it rendered before (they keep their own HTML).
 *
 * @example
 * ```ts
 * installFeatures([slotsFeature])
 * ```
 */
export const slotsFeature: FeatureProvider = {
  name: 'slots',
  register: ({ app }) => registerSlotHelpers(app),
  childTags(parent, given) {
    const tag = given as Record<string | symbol, unknown>
    const block = (tag[VIEW_TAG] as ViewTag | undefined)?.block
    if (!block) return { params: given }
    // Rendered now, inside the parent's render: components nested in a slot are the parent's, keyed in its order.
    const slots = renderSlots(block)
    // Awaited by the child's mount, or by the parent's answer (a child rendered before); never left unobserved.
    slots.catch(() => undefined)
    const params: Record<string | symbol, unknown> = { ...tag, [VIEW_TAG]: {} satisfies ViewTag }
    params[SLOTS] = { parent: parent.id, slots } satisfies PassedSlots
    return { params: params as Record<string, unknown>, reused: (ctx, id) => passSlots(ctx, parent.id, id, slots) }
  },
  renderedHtml(scope, html) {
    const state = stateOf(scope.component)
    if (!state) return html
    const { placed, shown } = state
    state.placed = false
    state.shown = undefined
    const full = withUnshownSlots(html, state, shown ?? new Set())
    return placed || Object.keys(state.attributes).length === 0 ? full : withPassedAttributes(full, state.attributes)
  },
}
