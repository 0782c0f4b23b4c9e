import Handlebars from 'handlebars'
import { KilnError, withAsyncHelpers, type Application } from '../../../../core/index.ts'
import { scopeOf } from '../../rendering/render.ts'
import { attributeText, mergedAttributes } from './root-attributes.ts'
import { COLLECTOR, slotMarkers, slotName, stateOf, type SlotCollector } from './slot-state.ts'

interface HelperOptions {
  hash?: Record<string, unknown>
  data?: Record<string, unknown> & { root?: Record<string | symbol, unknown> }
  fn?: (context: unknown, options?: { data?: unknown }) => string
}

/** A helper's arguments without Handlebars' options, and the options. */
function split(args: unknown[]): { given: unknown[]; options: HelperOptions } {
  return { given: args.slice(0, -1), options: (args.at(-1) ?? {}) as HelperOptions }
}

/**
 * The view helpers of slots and attributes:
 *
 * - `{{#slot "footer"}}…{{/slot}}` inside a `{{#comp}}` block: a named slot
 *   (the rest of the block is the default slot);
 * - `{{slot}}`, `{{slot "footer"}}` in the child's view: where a slot goes;
 * - `{{hasSlot "footer"}}` (`{{#if (hasSlot "footer")}}`): whether the tag gave it;
 * - `{{attributes class="card"}}` on an element of the child's view: the
 *   attributes the tag passed, merged with these (`class` joined); the root
 *   then gets none of its own.
 *
 * @example
 * ```ts
 * registerSlotHelpers(app)
 * ```
 */
export function registerSlotHelpers(app: Application): void {
  app.views.helper('slot', function (this: unknown, ...args: unknown[]) {
    const { given, options } = split(args)
    if (options.fn) return namedSlot(this, given[0], options)
    const name = given.length === 0 ? 'default' : slotName(given[0])
    const scope = scopeOf(options)
    const state = scope && stateOf(scope.component)
    if (!state?.names.includes(name)) return ''
    ;(state.shown ??= new Set()).add(name)
    return new Handlebars.SafeString(slotMarkers(name, state.parent, state.html?.[name] ?? ''))
  })
  app.views.helper('hasSlot', (...args: unknown[]) => {
    const { given, options } = split(args)
    const scope = scopeOf(options)
    const name = given.length === 0 ? 'default' : slotName(given[0])
    return Boolean(scope && stateOf(scope.component)?.names.includes(name))
  })
  app.views.helper('attributes', (...args: unknown[]) => {
    const { options } = split(args)
    const own: Record<string, string | true> = {}
    for (const [name, value] of Object.entries(options.hash ?? {})) {
      if (value === true) own[name] = true
      else if (typeof value === 'string' || typeof value === 'number') own[name] = String(value)
    }
    const scope = scopeOf(options)
    const state = scope && stateOf(scope.component)
    if (state) state.placed = true
    return new Handlebars.SafeString(attributeText(mergedAttributes(own, state?.attributes ?? {})).trimStart())
  })
}

/** `{{#slot "name"}}…{{/slot}}` in a `{{#comp}}` block: renders now, in the parent's render, into the block's slots. */
function namedSlot(context: unknown, given: unknown, options: HelperOptions): string {
  const slots = options.data?.[COLLECTOR] as SlotCollector | undefined
  if (!slots) throw new KilnError('{{#slot}} names a slot of a component: put it inside {{#comp "name"}}…{{/comp}}.', { code: 'E_COMP_SLOT_OUTSIDE' })
  const name = slotName(given)
  if (name === 'default')
    throw new KilnError("The default slot is the block's content outside {{#slot}}: name the slot otherwise.", { code: 'E_COMP_SLOT_NAME' })
  const body = options.fn!
  // Rendered at once (its nested components take their keys in the order of the parent's view), awaited with the block.
  slots.set(
    name,
    withAsyncHelpers(() => body(context, { data: options.data })),
  )
  return ''
}
