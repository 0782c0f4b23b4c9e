import Handlebars from 'handlebars'
import { KilnError, type ViewManager } from '../../../../core/index.ts'
import { escapeAttribute } from '../../rendering/html-root.ts'
import { RENDER_SCOPE, renderIsland, type RenderScope } from '../../rendering/render.ts'
import { badIslandName, isFirstRender, ISLAND_NAME, renderingAlone } from './inline-islands.ts'

/** What Handlebars hands a helper, as far as `{{island}}` reads it. */
interface IslandOptions {
  fn?: (context: unknown) => string
  inverse?: (context: unknown) => string
  hash?: Record<string, unknown>
  data?: { root?: Record<string | symbol, unknown> }
}

/**
 * The `island` view helper, in two forms:
 *
 * - `{{#island "stats"}}…{{/island}}`: an inline island, its block in the
 *   component's own view; `lazy=true` (load when scrolled into view) or
 *   `defer=true` (load once the page has started) render the `{{else}}`
 *   block (or nothing) on the first render and ask for the island at once
 *   after, with one `$loadIsland` call;
 * - `{{{island "stats"}}}`: an island in its own view (`static islandViews`).
 *
 * Either renders `<div wire:island="stats">…</div>`, which actions inside
 * and `$wire.$island('stats')` update alone.
 *
 * @example
 * ```ts
 * app.views.helper('island', islandHelper(manager.views))
 * ```
 */
export function islandHelper(views: ViewManager) {
  return function island(this: unknown, name: unknown, options: IslandOptions): unknown {
    const scope = options?.data?.root?.[RENDER_SCOPE] as RenderScope | undefined
    if (!scope) throw new KilnError('{{island}} works only inside a component view.', { code: 'E_COMP_ISLAND' })
    if (typeof name !== 'string' || !ISLAND_NAME.test(name)) throw badIslandName(name)
    if (!options.fn) return renderIsland(views, scope, name).then((inner) => new Handlebars.SafeString(wrap(name, inner)))
    if (renderingAlone(scope) === name) return new Handlebars.SafeString(options.fn(this))
    const hash = options.hash ?? {}
    const load = hash.lazy === true ? 'wire:intersect.once' : hash.defer === true ? 'wire:init' : undefined
    if (load && isFirstRender(scope)) {
      // The placeholder, and the directive that asks for the island: the client needs nothing of its own for it.
      return new Handlebars.SafeString(wrap(name, options.inverse?.(this) ?? '', ` ${load}="$loadIsland('${name}')"`))
    }
    return new Handlebars.SafeString(wrap(name, options.fn(this)))
  }
}

function wrap(name: string, inner: string, extra = ''): string {
  return `<div wire:island="${escapeAttribute(name)}"${extra}>${inner}</div>`
}
