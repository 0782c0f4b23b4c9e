import Handlebars from 'handlebars'
import { currentHttpContext, KilnError, type Application } from '../../../core/index.ts'
import { VIEW_TAG, type ComponentManager, type ViewTag } from '../component-manager.ts'
import { compDirectives } from './directives.ts'
import { scopeOf } from './render.ts'
import { compScripts } from '../assets/scripts.ts'

interface HelperOptions {
  hash?: Record<string, unknown>
  data?: { root?: Record<string | symbol, unknown> }
  fn?: (context: unknown, options?: { data?: unknown }) => string
}

/**
 * The template side of components, registered on the app's views:
 *
 * - `{{compScripts}}` (`@compScripts`): metas, boot config and scripts;
 * - `{{comp "name" key=value}}` (`@comp('name', key=value)`): a component,
 *   nested when used in another component's view; its parameters are
 *   marked `VIEW_TAG` for the features, with the body of a block tag
 *   (`{{#comp "card"}}…{{/comp}}`, which slots render).
 *
 * Features add their own as the plugin registers (`{{#island}}`,
 * `{{#persist}}`, `{{paginationLinks}}`).
 *
 * Each returns HTML as a `SafeString`: double braces print it, triple braces
 * still work. `{{error "field"}}` and `{{#error "field"}}` are the kernel's
 * (`core/views/error-helper.ts`): in a component view they read its `errors`.
 *
 * @example
 * ```ts
 * registerViewHelpers(app, manager)
 * ```
 */
export function registerViewHelpers(app: Application, manager: ComponentManager): void {
  app.views.preprocess(compDirectives)
  app.views.helper('compScripts', async () => new Handlebars.SafeString(await compScripts(manager, currentHttpContext())))
  app.views.helper('comp', function (this: unknown, name: unknown, options: HelperOptions) {
    if (typeof name !== 'string') throw new KilnError('{{comp}} needs a component name: {{comp "counter"}}.')
    const scope = scopeOf(options)
    const params: Record<string | symbol, unknown> = { ...(options?.hash ?? {}) }
    // A tag in a view, for features (its attributes); a block tag's body is theirs to render (slots), with this view's context.
    const tag: ViewTag = {}
    const body = options?.fn
    if (body) {
      const data = options.data as Record<string, unknown> | undefined
      tag.block = { data, render: (frame) => body(this, { data: frame ?? data }) }
    }
    params[VIEW_TAG] = tag
    return manager.embed(name, params as Record<string, unknown>, scope, scope?.ctx ?? currentHttpContext())
  })
}
