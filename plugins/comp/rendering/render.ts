import { HttpException, isPromiseLike, KilnError, ViewResponse, type HttpContext, type RenderOptions, type ViewManager } from '../../../core/index.ts'
import { metaOf } from '../state/class-meta.ts'
import type { Component } from '../component.ts'
import type { ComponentClass } from '../registry/registry.ts'
import type { ChildRecord } from '../protocol/snapshot.ts'
import { isObserved, reportToTests } from '../testing/observed.ts'

/** Where a component's view can find the component it renders, for `comp` and `island` helpers. */
export const RENDER_SCOPE = Symbol.for('kiln.comp.render-scope')

/**
 * The render scope a view helper was called in (undefined outside a component's view).
 *
 * @example
 * ```ts
 * app.views.helper('paginationLinks', (page: unknown, options: HelperOptions) => paginationLinks(manager, page, scopeOf(options)))
 * ```
 */
export function scopeOf(options: { data?: { root?: Record<string | symbol, unknown> } } | undefined): RenderScope | undefined {
  return options?.data?.root?.[RENDER_SCOPE] as RenderScope | undefined
}

/** A component's view source when it has no `render()` (its `static template`), or undefined. */
export type ViewSource = (Class: ComponentClass) => string | undefined

/** Data a component's view sees besides its state (what its `with()` returns), or undefined when there is none for it. */
export type ViewData = (component: Component) => Promise<Record<string, unknown>> | undefined

/** A component's HTML as its view rendered it (first render and updates), changed by a feature (slots: attributes on the root). */
export type RenderedHtml = (scope: RenderScope, html: string) => string

const viewSources: ViewSource[] = []
const viewDataSteps: ViewData[] = []
const renderedSteps: RenderedHtml[] = []

/**
 * Adds a step that may change a component's rendered HTML before its root
 * gets `wire:id` (the attributes a parent passes go on the child's root).
 *
 * @example
 * ```ts
 * addRenderedHtml((scope, html) => html)
 * ```
 */
export function addRenderedHtml(step: RenderedHtml): void {
  if (!renderedSteps.includes(step)) renderedSteps.push(step)
}

/**
 * Adds a way a component names its view source (single-file components' `static template`).
 *
 * @example
 * ```ts
 * addViewSource(templateSource)
 * ```
 */
export function addViewSource(source: ViewSource): void {
  if (!viewSources.includes(source)) viewSources.push(source)
}

/**
 * Adds data to every component view (what `with()` returns).
 *
 * @example
 * ```ts
 * addViewData((component) => (typeof component.with === 'function' ? withData(component) : undefined))
 * ```
 */
export function addViewData(data: ViewData): void {
  if (!viewDataSteps.includes(data)) viewDataSteps.push(data)
}

/** The features' data for a component's view: undefined (no promise) when none has any for it, as for most components. */
function extraData(component: Component): Promise<Record<string, unknown>> | undefined {
  let pending: Array<Promise<Record<string, unknown>>> | undefined
  for (const step of viewDataSteps) {
    const data = step(component)
    if (data) (pending ??= []).push(data)
  }
  if (!pending) return undefined
  return pending.length === 1 ? pending[0] : Promise.all(pending).then((parts) => Object.assign({}, ...parts) as Record<string, unknown>)
}

/**
 * How component templates compile: with comments around every block in
 * element content, so the browser's morph patches a block that appears or
 * goes away as a unit instead of shifting the elements after it onto new
 * ones. `{{#island}}` is left bare: it renders one element either way, and
 * an island rendered alone must give the HTML it gives inside its component.
 *
 * @example
 * ```ts
 * await views.render('components/counter', data, ctx, COMPONENT_RENDER)
 * ```
 */
export const COMPONENT_RENDER: RenderOptions = Object.freeze({ blockMarkers: Object.freeze({ except: Object.freeze(['island']) }) })

const EDGE_START = /^(?:\s*<!--\[if (?:END)?BLOCK\]><!\[endif\]-->)+/
const EDGE_END = /(?:<!--\[if (?:END)?BLOCK\]><!\[endif\]-->\s*)+$/

/**
 * A component's HTML without the block markers around its root element (a
 * view that is one `{{#if}}…{{else}}…{{/if}}`): the root is morphed on its
 * own, and outside it they would only sit in the parent's HTML, where a
 * re-render of the parent (the child as a bare placeholder) has none.
 */
function outerMarkersRemoved(html: string): string {
  // A cheap look at the ends first: most views start and end with their root's tags.
  return html.trimStart().startsWith('<!--[if') || html.trimEnd().endsWith('<![endif]-->') ? html.replace(EDGE_START, '').replace(EDGE_END, '') : html
}

/** One component render: what its nested components were, and what they are now. */
export interface RenderScope {
  component: Component
  Class: ComponentClass
  id: string
  ctx?: HttpContext
  /** Children from the snapshot: rendered before, so only a placeholder now. */
  previous: Record<string, ChildRecord>
  /** Children of this render, by key. */
  children: Record<string, ChildRecord>
  /** For keys of children that have none. */
  counter: number
}

/**
 * The data a component's view sees: its public state (models and dates as
 * they are), its computed properties (worked out on first read), `errors`,
 * `extra` (what its `with()` returned: it wins over a property of the same
 * name), and, hidden from the template, the render scope for nested
 * components.
 *
 * @example
 * ```ts
 * await views.render('components/counter', viewData(scope, { remaining: 2 }))
 * ```
 */
export function viewData(scope: RenderScope, extra: Record<string, unknown> = {}): Record<string | symbol, unknown> {
  const { component, Class } = scope
  const data: Record<string | symbol, unknown> = { ...component.state(), errors: component.errors, ...extra }
  for (const name of metaOf(Class).computed) {
    if (Object.prototype.hasOwnProperty.call(extra, name)) continue
    // An own accessor: Handlebars reads own properties only, and only the computed values a view uses get worked out.
    Object.defineProperty(data, name, { enumerable: true, get: () => (component as unknown as Record<string, unknown>)[name] })
  }
  data[RENDER_SCOPE] = scope
  return data
}

/** What a component renders: a template's source or a view's name, with the data it sees. */
export type ComponentView =
  { source: string; name?: undefined; data: Record<string | symbol, unknown> } | { name: string; source?: undefined; data: Record<string | symbol, unknown> }

/**
 * What a component renders, in this order: `render()` if it has one (a view
 * name, a template, a string starting with `<`, or `view(name, data)`);
 * else its `static template` (written with `html`); else the view
 * `components/<name>` (dots become folders).
 *
 * @example
 * ```ts
 * const view = await componentView(scope, 'counter') // { source: '<div>{{count}}</div>', data }
 * ```
 */
export function componentView(scope: RenderScope, name: string): ComponentView | Promise<ComponentView> {
  const { component, Class } = scope
  const extra = extraData(component)
  // Without `render()` or `with()` nothing can wait: no promise (each costs an AsyncLocalStorage hook on Node 20, issue 25).
  if (!component.render && extra === undefined) return namedView(Class, name, viewData(scope))
  return customView(scope, name, extra)
}

async function customView(scope: RenderScope, name: string, extra: Promise<Record<string, unknown>> | undefined): Promise<ComponentView> {
  const { component, Class } = scope
  const data = viewData(scope, extra ? await extra : {})
  if (component.render) {
    const result = await component.render()
    if (result instanceof ViewResponse) return { name: result.name, data: { ...data, ...result.data, [RENDER_SCOPE]: scope } }
    if (typeof result === 'string' && result.trimStart().startsWith('<')) return { source: result, data }
    if (typeof result === 'string') return { name: result, data }
    throw new KilnError(`${Class.name}.render() must return a view name, a template or view(...).`)
  }
  return namedView(Class, name, data)
}

/** The component's `static template`, else the view `components/<name>`. */
function namedView(Class: ComponentClass, name: string, data: Record<string | symbol, unknown>): ComponentView {
  let source: string | undefined
  for (const sourceOf of viewSources) if ((source = sourceOf(Class)) !== undefined) break
  return source === undefined ? { name: `components/${name.replaceAll('.', '/')}`, data } : { source, data }
}

/**
 * Renders a component's view (see `componentView` for which one), between
 * its `rendering()` and `rendered(html)` hooks.
 *
 * @example
 * ```ts
 * const html = await renderComponentView(views, scope, 'counter')
 * ```
 */
export async function renderComponentView(views: ViewManager, scope: RenderScope, name: string): Promise<string> {
  const { component } = scope
  // Hooks and the view are awaited only when they return a promise: most components have no hooks and no `with()`.
  const rendering = component.rendering?.()
  if (isPromiseLike(rendering)) await rendering
  const pending = componentView(scope, name)
  const view = isPromiseLike(pending) ? await pending : pending
  let html = outerMarkersRemoved(
    view.source === undefined
      ? await views.render(view.name, view.data, scope.ctx, COMPONENT_RENDER)
      : await views.renderInline(view.source, view.data, scope.ctx, COMPONENT_RENDER),
  )
  for (const step of renderedSteps) html = step(scope, html)
  const rendered = component.rendered?.(html)
  if (isPromiseLike(rendered)) await rendered
  // For a component test's assertViewHas: the data as the view saw it (computed values as they were worked out).
  if (isObserved(scope.ctx?.app)) reportToTests(scope.ctx?.app, scope.id, 'view', readableData(view.data))
  return html
}

/** The view's data by name, each value read once; one whose getter throws is left out. */
function readableData(data: Record<string | symbol, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(data)) {
    try {
      out[key] = data[key]
    } catch {
      // A computed property that fails when read: the view did not use it, or the render would have failed.
    }
  }
  return out
}

/**
 * Renders one island of a component (`static islandViews`), inner HTML only.
 *
 * @example
 * ```ts
 * const html = await renderIsland(views, scope, 'stats')
 * ```
 */
export async function renderIsland(views: ViewManager, scope: RenderScope, island: string, fromRequest = false): Promise<string> {
  const islands = scope.Class.islandViews ?? {}
  // An island named by a request that the component does not have is the browser's mistake (422), not the view's.
  if (fromRequest && !Object.prototype.hasOwnProperty.call(islands, island))
    throw new HttpException(422, `${scope.Class.name} has no island "${island.slice(0, 100)}".`)
  const viewName = islandView(scope.Class, island)
  const extra = extraData(scope.component)
  return views.render(viewName, viewData(scope, extra ? await extra : {}), scope.ctx, COMPONENT_RENDER)
}

/**
 * The view of an island, or a 422 naming the islands the component has.
 *
 * @example
 * ```ts
 * islandView(Dashboard, 'stats') // 'components/dashboard/stats'
 * ```
 */
export function islandView(Class: ComponentClass, island: string): string {
  const islands = Class.islandViews ?? {}
  const viewName = Object.prototype.hasOwnProperty.call(islands, island) ? islands[island] : undefined
  if (!viewName) {
    const known = Object.keys(islands)
    throw new KilnError(`${Class.name} has no island "${island}"${known.length ? `; its islands: ${known.join(', ')}` : ''}.`)
  }
  return viewName
}

/**
 * What a lazy or deferred component shows until it loads: its
 * `lazyPlaceholder` view, else an empty `<div>`.
 *
 * @example
 * ```ts
 * await placeholder(views, scope)
 * ```
 */
export async function placeholder(views: ViewManager, scope: RenderScope): Promise<string> {
  const viewName = scope.Class.lazyPlaceholder
  return viewName ? views.render(viewName, viewData(scope), scope.ctx) : '<div></div>'
}
