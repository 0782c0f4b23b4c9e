import type { Application } from '../../../core/index.ts'
import type { ScriptPart } from '../assets/scripts.ts'
import type { ChildTags } from '../component-manager.ts'
import type { Component } from '../component.ts'
import type { CompServices } from '../lifecycle/component-hook.ts'
import type { ListenerWake } from '../pipeline/bundled-update.ts'
import type { ComponentRegistry } from '../registry/registry.ts'
import type { RenderedHtml, ViewData, ViewSource } from '../rendering/render.ts'
import type { KindRule, PropertyKinds } from '../state/property-kinds.ts'
import type { StateType } from '../state/state.ts'
import type { ComponentAssertions } from '../testing/assertions.ts'

/** What a feature's `register` and `boot` steps get: the app, the plugin's services and its component registry. */
export interface ProvideContext {
  readonly app: Application
  readonly services: CompServices
  readonly registry: ComponentRegistry
}

/**
 * What a feature adds to the components plugin besides its lifecycle hooks
 * (Livewire's `provide()`): listed in `features/index.ts`, installed once
 * when the plugin loads; `register` and `boot` run with the plugin's.
 *
 * @example
 * ```ts
 * export const persistFeature: FeatureProvider = {
 *   name: 'navigate',
 *   register: ({ app }) => app.views.helper('persist', persistHelper),
 * }
 * ```
 */
export interface FeatureProvider {
  readonly name: string
  /** Methods every component gets; the feature declares them on `Component` too (declaration merging). */
  readonly methods?: Readonly<Record<string, (this: Component, ...args: any[]) => unknown>>
  /**
   * Assertions a component under test gets (`assertRedirect`), on `ComponentTest` and in its awaited chain; each
   * runs with the test as `this` and fails with `failAssertion`. The feature declares them on `ComponentAssertions`
   * and `PendingComponentTest` too (declaration merging).
   */
  readonly assertions?: Readonly<Record<string, (this: ComponentAssertions, ...args: any[]) => void>>
  /** Values of the feature's classes that a component's state may hold. */
  readonly stateTypes?: readonly StateType[]
  /** Property kinds the feature declares (`upload`): how a value from the browser becomes one. */
  readonly propertyKinds?: { readonly [K in keyof PropertyKinds]?: KindRule }
  /** After a component's properties were set back to their initial values (`reset()`). */
  readonly afterReset?: (component: Component) => void
  /** After an update from the browser was applied to `path` (the whole property or a path in it). */
  readonly afterUpdate?: (component: Component, path: string) => void
  /** What `@compScripts` prints for the feature: tags before the boot configuration, entries of it. */
  readonly scripts?: ScriptPart
  /** A component's view source when it has no `render()` (its `static template`). */
  readonly viewSource?: ViewSource
  /** Data a component's view sees besides its state (what `with()` returns). */
  readonly viewData?: ViewData
  /** A component's HTML once its view rendered, before its root gets `wire:id` (attributes a parent passes). */
  readonly renderedHtml?: RenderedHtml
  /** What a nested component's tag in a parent's view carries for the feature (a parent's `wire:model`). */
  readonly childTags?: ChildTags
  /**
   * Names the feature puts in every component's view data that no helper, property or `with()` gives (a slot's
   * `slot`, `attributes`): `kiln check` accepts them in any component template. Helpers need not be listed: the
   * check reads the registered ones.
   */
  readonly templateNames?: readonly string[]
  /** Whether a listening component sent with a bundled update updates without an event for it. */
  readonly wakesListener?: ListenerWake
  /** Once, when the feature is installed: what it adds to another feature (form objects to validation). */
  install?(): void
  /** When the plugin registers: view helpers, published files, the feature's services. */
  register?(comp: ProvideContext): void
  /** When the plugin boots: routes. */
  boot?(comp: ProvideContext): void | Promise<void>
}
