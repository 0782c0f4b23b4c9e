import { HttpException } from '../../../../core/index.ts'
import type { ComponentContext, ComponentHook } from '../../lifecycle/component-hook.ts'
import { renderIsland } from '../../rendering/render.ts'
import { ISLAND_NAME, markFirstRender, renderInlineIsland, unknownIsland } from './inline-islands.ts'

/** The islands `$loadIsland` calls of this trip asked for. */
const LOADS = Symbol('comp.islands.loads')

/**
 * Islands: named parts of a component's view that render and update on
 * their own, inline (`{{#island "stats"}}…{{/island}}`) or in their own
 * view (`static islandViews`). An update that names an island (an action
 * inside it, `$wire.$island(…)`), or whose calls are all `$loadIsland` (lazy
 * and deferred islands loading, several in one request), renders only those
 * islands (the `islands` effect), not the whole component; an island the
 * component does not have is a 422. On a first render, lazy and deferred
 * islands show their placeholder.
 *
 * @example
 * ```ts
 * const features = [islands, ...]
 * ```
 */
export const islands: ComponentHook = {
  name: 'islands',
  mount(c) {
    markFirstRender(c.scope)
  },
  calls: {
    $loadIsland(c, params) {
      const [name] = params
      if (typeof name !== 'string' || !ISLAND_NAME.test(name)) throw new HttpException(422, '$loadIsland takes an island name.')
      const loads = c.get<Set<string>>(LOADS) ?? new Set()
      c.set(LOADS, loads.add(name))
    },
  },
  render(c) {
    const names = islandsToRender(c)
    // A promise only when islands render alone: the whole component's render is the common case.
    if (!names) return false
    return renderAlone(c, names)
  },
}

async function renderAlone(c: ComponentContext, names: Set<string>): Promise<boolean> {
  const out: Record<string, string> = {}
  for (const name of names) out[name] = await renderOne(c, name)
  c.effects.islands = out
  return true
}

/** The islands this update renders alone, or undefined when the whole component renders. */
function islandsToRender(c: ComponentContext): Set<string> | undefined {
  const { payload } = c.request!
  if (payload.island) return new Set([payload.island, ...(c.get<Set<string>>(LOADS) ?? [])])
  const loads = c.get<Set<string>>(LOADS)
  // Loads riding with other calls: the whole component renders, islands included.
  if (!loads || payload.calls.some((call) => call.method !== '$loadIsland')) return undefined
  return loads
}

async function renderOne(c: ComponentContext, name: string): Promise<string> {
  const own = c.Class.islandViews ?? {}
  if (Object.prototype.hasOwnProperty.call(own, name)) return renderIsland(c.services.views, c.scope, name, true)
  const html = await renderInlineIsland(c.services.views, c.scope, c.name, name)
  if (html === undefined) throw unknownIsland(c.Class.name, name)
  return html
}
