import { KilnError, ViewResponse, type ViewManager } from '../../../../core/index.ts'
import { placeholder, viewData, type RenderScope } from '../../rendering/render.ts'

/**
 * What a lazy or deferred component shows until it loads. Its
 * `placeholder(params)` method, when it has one (Livewire's), gets the
 * mount parameters and returns what `render()` may: a view name, a
 * template (a string starting with `<`) or `view(name, data)`, rendered
 * with the component's initial state and the parameters (they win, as they
 * are what it will mount with). Otherwise its `static lazyPlaceholder`
 * view, else an empty `<div>`.
 *
 * @example
 * ```ts
 * c.placeholder = await placeholderHtml(c.services.views, c.scope, { title: 'Sales' })
 * ```
 */
export async function placeholderHtml(views: ViewManager, scope: RenderScope, params: Record<string, unknown>): Promise<string> {
  const { component, Class } = scope
  if (typeof component.placeholder !== 'function') return placeholder(views, scope)
  const result = await component.placeholder(params)
  const data = viewData(scope, params)
  if (result instanceof ViewResponse) return views.render(result.name, { ...data, ...result.data }, scope.ctx)
  // A template's values are escaped as in any view: the parameters may hold what a user typed.
  if (typeof result === 'string' && result.trimStart().startsWith('<')) return views.renderInline(result, data, scope.ctx)
  if (typeof result === 'string' && result.length > 0) return views.render(result, data, scope.ctx)
  throw new KilnError(`${Class.name}.placeholder() must return a view name, a template (a string starting with <) or view(name, data).`, {
    code: 'E_COMP_PLACEHOLDER',
  })
}
