import Handlebars from 'handlebars'
import { currentHttpContext, KilnError, type Application } from '../../../core/index.ts'
import type { ComponentManager } from '../component-manager.ts'
import { compDirectives } from './directives.ts'
import { islandHelper } from '../features/islands/island-helper.ts'
import { persistHelper } from '../features/navigate/persist-helper.ts'
import { paginationLinks } from '../features/pagination/with-pagination.ts'
import { RENDER_SCOPE, type RenderScope } from './render.ts'
import { compScripts } from '../assets/scripts.ts'

interface HelperOptions {
  hash?: Record<string, unknown>
  data?: { root?: Record<string | symbol, unknown> }
}

const scopeOf = (options: HelperOptions | undefined) => options?.data?.root?.[RENDER_SCOPE] as RenderScope | undefined

/**
 * The template side of components, registered on the app's views:
 *
 * - `{{compScripts}}` (`@compScripts`): metas, boot config and scripts;
 * - `{{comp "name" key=value}}` (`@comp('name', key=value)`): a component,
 *   nested when used in another component's view;
 * - `{{#island "name"}}…{{/island}}` (inline, `lazy=true`, `defer=true`) and
 *   `{{island "name"}}` (its own view): an island of the component being
 *   rendered;
 * - `{{paginationLinks page}}`: links for a `paginate()` result;
 * - `{{#persist "name"}}...{{/persist}}`: a block `wire:navigate` visits keep alive.
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
  app.views.helper('comp', (name: unknown, options: HelperOptions) => {
    if (typeof name !== 'string') throw new KilnError('{{comp}} needs a component name: {{comp "counter"}}.')
    const scope = scopeOf(options)
    return manager.embed(name, { ...(options?.hash ?? {}) }, scope, scope?.ctx ?? currentHttpContext())
  })
  app.views.helper('island', islandHelper(manager.views))
  app.views.helper('persist', persistHelper)
  app.views.helper('paginationLinks', (page: unknown, options: HelperOptions) => paginationLinks(manager, page, scopeOf(options)))
}
