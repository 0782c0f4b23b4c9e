import type { FeatureProvider } from '../../extension/feature-provider.ts'
import { eventAssertions } from './event-assertions.ts'

/**
 * Events, besides their hook: `assertDispatched` and `assertNotDispatched` on
 * a component under test.
 *
 * @example
 * ```ts
 * installFeatures([eventsFeature])
 * ```
 */
export const eventsFeature: FeatureProvider = {
  name: 'events',
  assertions: eventAssertions,
}
