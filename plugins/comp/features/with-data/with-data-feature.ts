import type { FeatureProvider } from '../../extension/feature-provider.ts'
import { withData } from './with-data.ts'

/**
 * View data: what a component's `with()` returns joins its view's data, on
 * every render (its view, its `static template`, its islands).
 *
 * @example
 * ```ts
 * installFeatures([withDataFeature])
 * ```
 */
export const withDataFeature: FeatureProvider = {
  name: 'with-data',
  viewData: (component) => (typeof component.with === 'function' ? withData(component) : undefined),
}
