import type { ComponentHook } from '../lifecycle/component-hook.ts'

/**
 * Every component feature, in the order their hooks run: the one place a
 * feature is registered. A new feature is a folder under `features/` with
 * a `ComponentHook`, added here. The hooks load on the first mount or
 * update (`loadComponentFeatures`), not at boot: an app serving pages
 * without components never loads them (issue 25, P6).
 */
const FEATURES: readonly (() => Promise<ComponentHook>)[] = [
  () => import('./validation/validation-hook.ts').then((m) => m.validation),
  () => import('./forms/forms-hook.ts').then((m) => m.forms),
  () => import('./lazy/lazy-hook.ts').then((m) => m.lazy),
  () => import('./locked/locked-hook.ts').then((m) => m.lockedProperties),
  () => import('./props/props-hook.ts').then((m) => m.props),
  () => import('./events/events-hook.ts').then((m) => m.events),
  () => import('./magic-actions/magic-actions-hook.ts').then((m) => m.magicActions),
  () => import('./uploads/uploads-hook.ts').then((m) => m.uploads),
  () => import('./islands/islands-hook.ts').then((m) => m.islands),
  () => import('./query-string/query-string-hook.ts').then((m) => m.queryString),
  () => import('./js/js-hook.ts').then((m) => m.js),
  () => import('./redirects/redirects-hook.ts').then((m) => m.redirects),
  () => import('./bundling/bundling-hook.ts').then((m) => m.bundling),
  () => import('./transition/transition-hook.ts').then((m) => m.transitions),
]

let loading: Promise<readonly ComponentHook[]> | undefined

/**
 * Every feature's hooks, in the order they run, loaded once per process.
 *
 * @example
 * ```ts
 * new ComponentManager(app, registry, config, checksums, uploads, binding, loadComponentFeatures)
 * ```
 */
export function loadComponentFeatures(): Promise<readonly ComponentHook[]> {
  return (loading ??= Promise.all(FEATURES.map((load) => load())))
}
