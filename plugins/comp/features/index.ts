import type { FeatureProvider, ProvideContext } from '../extension/feature-provider.ts'
import { bootFeatures, installFeatures, registerFeatures } from '../extension/installed-features.ts'
import type { ComponentHook } from '../lifecycle/component-hook.ts'
import { cloakFeature } from './cloak/cloak-feature.ts'
import { computedFeature } from './computed/computed-feature.ts'
import { downloadsFeature } from './downloads/downloads-feature.ts'
import { echoFeature } from './echo/echo-feature.ts'
import { eventsFeature } from './events/events-feature.ts'
import { formsFeature } from './forms/forms-feature.ts'
import { islandsFeature } from './islands/islands-feature.ts'
import { navigateFeature } from './navigate/navigate-feature.ts'
import { paginationFeature } from './pagination/pagination-feature.ts'
import { propsFeature } from './props/props-feature.ts'
import { redirectsFeature } from './redirects/redirects-feature.ts'
import { scriptsFeature } from './scripts/scripts-feature.ts'
import { singleFileFeature } from './single-file/single-file-feature.ts'
import { slotsFeature } from './slots/slots-feature.ts'
import { templateCheckFeature } from './template-check/template-check-feature.ts'
import { transitionFeature } from './transition/transition-feature.ts'
import { uploadsFeature } from './uploads/uploads-feature.ts'
import { validationFeature } from './validation/validation-feature.ts'
import { withDataFeature } from './with-data/with-data-feature.ts'

/**
 * What features add to the plugin besides their hooks (Livewire's
 * `provide()`): component methods, state types and property kinds, view
 * sources and data, view helpers, scripts, routes. The one place the
 * kernel learns of them: they are installed as the plugin loads, and their
 * register and boot steps run with the plugin's. Light modules only: the
 * hooks below load later.
 */
const PROVIDERS: readonly FeatureProvider[] = [
  validationFeature,
  formsFeature,
  uploadsFeature,
  propsFeature,
  slotsFeature,
  computedFeature,
  redirectsFeature,
  downloadsFeature,
  eventsFeature,
  transitionFeature,
  singleFileFeature,
  withDataFeature,
  islandsFeature,
  navigateFeature,
  paginationFeature,
  cloakFeature,
  echoFeature,
  scriptsFeature,
  templateCheckFeature,
]

installFeatures(PROVIDERS)

/**
 * The features' register steps (view helpers, published files, their services), as the plugin registers.
 *
 * @example
 * ```ts
 * registerComponentFeatures({ app, services: manager, registry: manager.registry })
 * ```
 */
export function registerComponentFeatures(comp: ProvideContext): void {
  registerFeatures(PROVIDERS, comp)
}

/**
 * The features' boot steps (routes), as the plugin boots.
 *
 * @example
 * ```ts
 * await bootComponentFeatures({ app, services: manager, registry: manager.registry })
 * ```
 */
export function bootComponentFeatures(comp: ProvideContext): Promise<void> {
  return bootFeatures(PROVIDERS, comp)
}

/**
 * Every component feature's hooks, in the order they run. A new feature is
 * a folder under `features/` with a `ComponentHook` added here, and a
 * provider above when it adds more. The hooks load on the first mount or
 * update (`loadComponentFeatures`), not at boot: an app serving pages
 * without components never loads them (issue 25, P6).
 */
const FEATURES: readonly (() => Promise<ComponentHook>)[] = [
  () => import('./validation/validation-hook.ts').then((m) => m.validation),
  () => import('./forms/forms-hook.ts').then((m) => m.forms),
  () => import('./lazy/lazy-hook.ts').then((m) => m.lazy),
  () => import('./locked/locked-hook.ts').then((m) => m.lockedProperties),
  () => import('./props/props-hook.ts').then((m) => m.props),
  () => import('./slots/slots-hook.ts').then((m) => m.slots),
  () => import('./events/events-hook.ts').then((m) => m.events),
  () => import('./magic-actions/magic-actions-hook.ts').then((m) => m.magicActions),
  () => import('./uploads/uploads-hook.ts').then((m) => m.uploads),
  () => import('./islands/islands-hook.ts').then((m) => m.islands),
  // Before the query string: a value in the URL wins over the one kept in the session.
  () => import('./session/session-hook.ts').then((m) => m.sessionState),
  () => import('./query-string/query-string-hook.ts').then((m) => m.queryString),
  () => import('./js/js-hook.ts').then((m) => m.js),
  () => import('./scripts/scripts-hook.ts').then((m) => m.scripts),
  () => import('./redirects/redirects-hook.ts').then((m) => m.redirects),
  () => import('./downloads/downloads-hook.ts').then((m) => m.downloads),
  () => import('./bundling/bundling-hook.ts').then((m) => m.bundling),
  // After bundling: its dehydrate adds the @json() actions to @async()'s.
  () => import('./json/json-hook.ts').then((m) => m.jsonActions),
  () => import('./transition/transition-hook.ts').then((m) => m.transitions),
  // Last: its dehydrate hook writes back the persisted and cached computed values that anything before it worked out.
  () => import('./computed/computed-hook.ts').then((m) => m.computedValues),
]

let loading: Promise<readonly ComponentHook[]> | undefined

/**
 * Every feature's hooks, in the order they run, loaded once per process.
 *
 * @example
 * ```ts
 * new ComponentManager(app, registry, config, checksums, binding, loadComponentFeatures)
 * ```
 */
export function loadComponentFeatures(): Promise<readonly ComponentHook[]> {
  return (loading ??= Promise.all(FEATURES.map((load) => load())))
}
