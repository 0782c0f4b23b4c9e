import Handlebars from 'handlebars'
import { currentHttpContext, KilnError, type Application } from '../../../core/index.ts'
import type { ComponentManager } from '../component-manager.ts'
import { compDirectives } from './directives.ts'
import { scopeOf } from './render.ts'
import { compScripts } from '../assets/scripts.ts'

interface HelperOptions {
  hash?: Record<string, unknown>
  data?: { root?: Record<string | symbol, unknown> }
}

/**
 * The template side of components, registered on the app's views:
 *
 * - `{{compScripts}}` (`@compScripts`): metas, boot config and scripts;
 * - `{{comp "name" key=value}}` (`@comp('name', key=value)`): a component,
 *   nested when used in another component's view.
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
  app.views.helper('comp', (name: unknown, options: HelperOptions) => {
    if (typeof name !== 'string') throw new KilnError('{{comp}} needs a component name: {{comp "counter"}}.')
    const scope = scopeOf(options)
    return manager.embed(name, { ...(options?.hash ?? {}) }, scope, scope?.ctx ?? currentHttpContext())
  })
}
