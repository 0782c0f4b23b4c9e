import type { FeatureProvider } from '../../extension/feature-provider.ts'
import type { Component } from '../../component.ts'
import { forgetComputed } from './computed.ts'

declare module '../../component.ts' {
  interface Component {
    /** Works computed properties out again on their next read (all, or one); a persisted or cached value is forgotten in the store too. @example `this.forgetComputed('remaining')` */
    forgetComputed(name?: string): void
  }
}

/**
 * Computed properties, besides `@computed()`: `this.forgetComputed()` on every component.
 *
 * @example
 * ```ts
 * installFeatures([computedFeature])
 * ```
 */
export const computedFeature: FeatureProvider = {
  name: 'computed',
  methods: {
    forgetComputed(this: Component, name?: string) {
      forgetComputed(this, name)
    },
  },
}
