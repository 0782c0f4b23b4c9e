import Handlebars from 'handlebars'
import { currentHttpContext, KilnError, type Application } from '../../core/index.ts'
import type { ComponentManager } from './component-manager.ts'
import { compDirectives } from './directives.ts'
import { escapeAttribute } from './html-root.ts'
import { paginationLinks } from './features/pagination/with-pagination.ts'
import { RENDER_SCOPE, renderIsland, type RenderScope } from './render.ts'
import { compScripts } from './scripts.ts'

interface HelperOptions {
  hash?: Record<string, unknown>
  data?: { root?: Record<string | symbol, unknown> }
}

const scopeOf = (options: HelperOptions | undefined) => options?.data?.root?.[RENDER_SCOPE] as RenderScope | undefined

/**
 * The template side of components, registered on the app's views:
 *
 * - `{{{compScripts}}}` (`@compScripts`): metas, boot config and scripts;
 * - `{{{comp "name" key=value}}}` (`@comp('name', key=value)`): a component,
 *   nested when used in another component's view;
 * - `{{{island "name"}}}`: an island of the component being rendered;
 * - `{{error "field"}}`: the first validation message of a field;
 * - `{{{paginationLinks page}}}`: links for a `paginate()` result.
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
    if (typeof name !== 'string') throw new KilnError('{{comp}} needs a component name: {{{comp "counter"}}}.')
    const scope = scopeOf(options)
    return manager.embed(name, { ...(options?.hash ?? {}) }, scope, scope?.ctx ?? currentHttpContext())
  })
  app.views.helper('island', async (name: unknown, options: HelperOptions) => {
    const scope = scopeOf(options)
    if (!scope) throw new KilnError('{{island}} works only inside a component view.')
    const inner = await renderIsland(manager.views, scope, String(name))
    return new Handlebars.SafeString(`<div wire:island="${escapeAttribute(String(name))}">${inner}</div>`)
  })
  app.views.helper('error', (field: unknown, options: HelperOptions) => {
    const errors = options?.data?.root?.errors as Record<string, string[]> | undefined
    return errors?.[String(field)]?.[0] ?? ''
  })
  app.views.helper('paginationLinks', (page: unknown, options: HelperOptions) => paginationLinks(manager, page, scopeOf(options)))
}
