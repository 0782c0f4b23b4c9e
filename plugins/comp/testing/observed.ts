import type { Application } from '../../../core/index.ts'

/** What a component under test reported while it ran, by kind (`view`, `rules`), oldest first. */
export type Observations = Map<string, unknown[]>

// Only apps a component test drives are here: elsewhere a report is one WeakMap look-up, and nothing is kept.
const observed = new WeakMap<Application, Map<string, Observations>>()

/**
 * Starts keeping what the components of `app` report while they run (the
 * data a view rendered with, the rules that failed): `testComponent` does,
 * so that assertions can read what the HTML and the snapshot do not carry
 * (`assertViewHas`, `assertHasErrors({ title: 'min' })`).
 *
 * @example
 * ```ts
 * observeComponents(app)
 * ```
 */
export function observeComponents(app: Application): void {
  if (!observed.has(app)) observed.set(app, new Map())
}

/**
 * Reports something a component did in a request, for the tests that drive
 * it; nothing happens when no test observes the app. Called by the kernel
 * (the view's data) and by features (validation's failed rules).
 *
 * @example
 * ```ts
 * reportToTests(ctx?.app, run.id, 'view', data)
 * ```
 */
export function reportToTests(app: Application | undefined, id: string, kind: string, value: unknown): void {
  const components = app === undefined ? undefined : observed.get(app)
  if (!components) return
  let kinds = components.get(id)
  if (!kinds) components.set(id, (kinds = new Map()))
  let reports = kinds.get(kind)
  if (!reports) kinds.set(kind, (reports = []))
  reports.push(value)
}

/**
 * Whether a test observes `app`: a report that costs something to make (a
 * copy of the view's data) is made only then.
 *
 * @example
 * ```ts
 * if (isObserved(ctx?.app)) reportToTests(ctx?.app, id, 'view', copy(data))
 * ```
 */
export function isObserved(app: Application | undefined): boolean {
  return app !== undefined && observed.has(app)
}

/**
 * What the component `id` of `app` reported of a kind, oldest first.
 *
 * @example
 * ```ts
 * const [last] = observationsOf(app, counter.id, 'view').slice(-1)
 * ```
 */
export function observationsOf(app: Application, id: string, kind: string): readonly unknown[] {
  return observed.get(app)?.get(id)?.get(kind) ?? []
}
