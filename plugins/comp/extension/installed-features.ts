import { KilnError } from '../../../core/index.ts'
import { addScriptPart } from '../assets/scripts.ts'
import { addChildTags } from '../component-manager.ts'
import { addAfterReset, Component } from '../component.ts'
import { addListenerWake } from '../pipeline/bundled-update.ts'
import { addRenderedHtml, addViewData, addViewSource } from '../rendering/render.ts'
import { addKindRule, type PropertyKinds } from '../state/property-kinds.ts'
import { addStateType } from '../state/state.ts'
import { addAfterUpdate } from '../state/updates.ts'
import { ComponentAssertions } from '../testing/assertions.ts'
import { PendingComponentTest } from '../testing/pending-test.ts'
import type { FeatureProvider, ProvideContext } from './feature-provider.ts'

const installed = new Set<FeatureProvider>()
const templateNames = new Set<string>()

/**
 * Installs features, once each, in their order: their methods go on
 * `Component.prototype` (not enumerable, as a class's own methods are),
 * and what they add to state, updates, rendering and scripts joins the
 * kernel's lists. `features/index.ts` installs every feature as the plugin
 * loads.
 *
 * @example
 * ```ts
 * installFeatures([validationFeature, formsFeature])
 * ```
 */
export function installFeatures(features: readonly FeatureProvider[]): void {
  for (const feature of features) {
    if (installed.has(feature)) continue
    installed.add(feature)
    for (const [name, method] of Object.entries(feature.methods ?? {})) {
      if (Object.prototype.hasOwnProperty.call(Component.prototype, name))
        throw new KilnError(`Component.${name}() is defined twice (the ${feature.name} feature defines it again).`, { code: 'E_COMP_FEATURE_METHOD' })
      Object.defineProperty(Component.prototype, name, { value: method, writable: true, configurable: true })
    }
    for (const [name, check] of Object.entries(feature.assertions ?? {})) {
      ComponentAssertions.addAssertion(name, check)
      PendingComponentTest.addAssertion(name)
    }
    for (const type of feature.stateTypes ?? []) addStateType(type)
    for (const [kind, rule] of Object.entries(feature.propertyKinds ?? {})) if (rule) addKindRule(kind as keyof PropertyKinds, rule)
    if (feature.afterReset) addAfterReset(feature.afterReset)
    if (feature.afterUpdate) addAfterUpdate(feature.afterUpdate)
    if (feature.scripts) addScriptPart(feature.scripts)
    if (feature.viewSource) addViewSource(feature.viewSource)
    if (feature.viewData) addViewData(feature.viewData)
    if (feature.renderedHtml) addRenderedHtml(feature.renderedHtml)
    if (feature.childTags) addChildTags(feature.childTags)
    if (feature.wakesListener) addListenerWake(feature.wakesListener)
    for (const name of feature.templateNames ?? []) templateNames.add(name)
    feature.install?.()
  }
}

/**
 * The names installed features put in every component's view data besides
 * helpers (their `templateNames`), for the template check.
 *
 * @example
 * ```ts
 * featureTemplateNames() // ['slot', 'attributes']
 * ```
 */
export function featureTemplateNames(): readonly string[] {
  return [...templateNames]
}

/**
 * Runs the features' register steps (view helpers, published files, their
 * services), in their order, as the plugin registers.
 *
 * @example
 * ```ts
 * registerFeatures(FEATURES, { app, services: manager, registry: manager.registry })
 * ```
 */
export function registerFeatures(features: readonly FeatureProvider[], comp: ProvideContext): void {
  for (const feature of features) feature.register?.(comp)
}

/**
 * Runs the features' boot steps (routes), in their order, as the plugin boots.
 *
 * @example
 * ```ts
 * await bootFeatures(FEATURES, { app, services: manager, registry: manager.registry })
 * ```
 */
export async function bootFeatures(features: readonly FeatureProvider[], comp: ProvideContext): Promise<void> {
  for (const feature of features) await feature.boot?.(comp)
}
