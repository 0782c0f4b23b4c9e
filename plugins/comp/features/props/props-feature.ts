import type { FeatureProvider } from '../../extension/feature-provider.ts'
import { bindRoot, childParams, passToChild } from './passed-props.ts'
import { propsMoved } from './props-hook.ts'

/**
 * Props, besides their hook: a parent's `wire:model` on a nested
 * component's tag binds a property of the child (`wire:modelable`), a child
 * rendered before takes the reactive values its parent passes again, and a
 * listening child sent with a bundled update updates when they changed.
 *
 * @example
 * ```ts
 * installFeatures([propsFeature])
 * ```
 */
export const propsFeature: FeatureProvider = {
  name: 'props',
  childTags(parent, given) {
    const { params, binding } = childParams(parent, given)
    return {
      params: params as Record<string, unknown>,
      reused: (ctx, id) => passToChild(ctx, id, { params: params as Record<string, unknown>, binding }),
      mounted: (html, name) => bindRoot(html, name, binding),
    }
  },
  wakesListener: propsMoved,
}
