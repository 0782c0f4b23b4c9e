import type { FeatureProvider } from '../../extension/feature-provider.ts'
import { islandHelper } from './island-helper.ts'

/**
 * Islands, besides their hook: the `{{#island "name"}}…{{/island}}`
 * (inline, `lazy=true`, `defer=true`) and `{{island "name"}}` (its own
 * view) helpers of component views.
 *
 * @example
 * ```ts
 * installFeatures([islandsFeature])
 * ```
 */
export const islandsFeature: FeatureProvider = {
  name: 'islands',
  register: ({ app, services }) => app.views.helper('island', islandHelper(services.views)),
}
