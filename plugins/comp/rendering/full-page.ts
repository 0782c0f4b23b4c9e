import Handlebars from 'handlebars'
import { view, type Application, type RouteDefinition } from '../../../core/index.ts'
import type { ComponentManager } from '../component-manager.ts'
import type { ComponentClass } from '../registry/registry.ts'

/** Options of `Route.comp`. */
export interface FullPageOptions {
  /** The layout view (default: the component's `static layout`, else `comp.layout`). */
  layout?: string
  /** The page title (default: the component's `static title`). */
  title?: string
}

declare module '../../../core/index.ts' {
  interface RouterMacros {
    /**
     * A full-page component: GET `path` renders the component inside a
     * layout (its `{{{body}}}`); route parameters are its mount parameters.
     *
     * @example
     * ```ts
     * Route.comp('/counter', Counter)
     * Route.comp('/posts/{post}/edit', 'edit-post', { title: 'Edit post' }).middleware(['auth'])
     * ```
     */
    comp(path: string, component: ComponentClass | string, options?: FullPageOptions): RouteDefinition
  }
}

/**
 * Adds `Route.comp(...)` to the app's router.
 *
 * @example
 * ```ts
 * registerFullPageRoutes(app, manager)
 * ```
 */
export function registerFullPageRoutes(app: Application, manager: ComponentManager): void {
  app.router.macro('comp', function (path: string, component: ComponentClass | string, options: FullPageOptions = {}) {
    return this.get(path, async (ctx) => {
      const { Class } = manager.resolve(component)
      const mounted = await manager.mount(Class, { ...ctx.params }, { ctx })
      const layout = options.layout ?? Class.layout ?? manager.config.layout
      return view(layout, { title: options.title ?? Class.title, body: new Handlebars.SafeString(mounted.html) })
    })
  })
}
