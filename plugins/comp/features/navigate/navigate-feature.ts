import type { FeatureProvider } from '../../extension/feature-provider.ts'
import { persistHelper } from './persist-helper.ts'

/**
 * Navigation, on the server: the `{{#persist "name"}}…{{/persist}}` helper,
 * a block that `wire:navigate` visits keep alive.
 *
 * @example
 * ```ts
 * installFeatures([navigateFeature])
 * ```
 */
export const navigateFeature: FeatureProvider = {
  name: 'navigate',
  register: ({ app }) => app.views.helper('persist', persistHelper),
}
