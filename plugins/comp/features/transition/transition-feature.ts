import type { FeatureProvider } from '../../extension/feature-provider.ts'
import { runOf } from '../../component-run.ts'
import type { Component } from '../../component.ts'
import { chooseTransition, type TransitionOptions } from './transition.ts'

declare module '../../component.ts' {
  interface Component {
    /**
     * Sets how this update's view transition plays (the `wire:transition`
     * elements it adds, removes or changes): a `type` that CSS selects with
     * `:active-view-transition-type(<type>)`, or `{ skip: true }`.
     *
     * @example
     * ```ts
     * goToStep(step: number) {
     *   this.transition({ type: step > this.step ? 'forward' : 'backward' })
     *   this.step = step
     * }
     * ```
     */
    transition(options: TransitionOptions): void

    /** This update changes the page at once, with no view transition. @example `this.skipTransition()` */
    skipTransition(): void
  }
}

/**
 * View transitions, besides their hook: `this.transition()` and
 * `this.skipTransition()` on every component.
 *
 * @example
 * ```ts
 * installFeatures([transitionFeature])
 * ```
 */
export const transitionFeature: FeatureProvider = {
  name: 'transition',
  methods: {
    transition(this: Component, options: TransitionOptions) {
      chooseTransition(runOf(this), options)
    },
    skipTransition(this: Component) {
      chooseTransition(runOf(this), { skip: true })
    },
  },
}
