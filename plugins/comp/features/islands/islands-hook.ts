import type { ComponentHook } from '../../lifecycle/component-hook.ts'
import { renderIsland } from '../../render.ts'

/**
 * Islands (`static islandViews`): an update that names an island renders
 * only that part of the view (the `islands` effect) and not the whole
 * component; an island the component does not have is a 422.
 *
 * @example
 * ```ts
 * const features = [islands, ...]
 * ```
 */
export const islands: ComponentHook = {
  name: 'islands',
  async render(c) {
    const island = c.request?.payload.island
    if (!island) return false
    c.effects.islands = { [island]: await renderIsland(c.services.views, c.scope, island, true) }
    return true
  },
}
