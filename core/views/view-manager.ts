import { KilnError } from '../support/errors.ts'
import type { Application } from '../application/application.ts'
import type { HttpContext } from '../http/pipeline/http-context.ts'
import { DriverManager } from '../manager/driver-manager.ts'
import type { Preprocessor, RenderOptions, ViewEngine, ViewHelper } from './view-engine.ts'

/** Adds data to every view rendered in a request. */
export type ViewComposer = (ctx: HttpContext) => Record<string, unknown> | Promise<Record<string, unknown>>

/**
 * The app's views: a registry of engines (handlebars by default, others via
 * `engines.extend`), helpers and preprocessing steps that plugins add,
 * shared data and per-request composers.
 *
 * @example
 * ```ts
 * app.views.helper('upper', (s: string) => s.toUpperCase())
 * app.views.preprocess((source) => source.replaceAll('@year', String(new Date().getFullYear())))
 * app.views.share('appName', 'Shop')
 * app.views.composer((ctx) => ({ user: ctx.request.user() }))
 * const html = await app.views.render('home', { title: 'Hi' })
 * ```
 */
export class ViewManager {
  readonly engines: DriverManager<ViewEngine & { helper?(name: string, fn: ViewHelper): void }, Application>
  readonly helpers = new Map<string, ViewHelper>()
  readonly preprocessors: Preprocessor[] = []
  private readonly shared: Record<string, unknown> = {}
  private readonly composers: ViewComposer[] = []
  private readonly composedNames = new Set<string>()
  private readonly forgetListeners: Array<(file: string) => void> = []
  private readonly primed = new WeakSet<object>()

  constructor(app: Application) {
    this.engines = new DriverManager(app, app.config, { kind: 'view engine', file: 'views', connectionsKey: 'engines', defaultKey: 'engine' })
  }

  /** Registers a template helper on every engine that supports helpers. @example `views.helper('money', fmt)` */
  helper(name: string, fn: ViewHelper): this {
    this.helpers.set(name, fn)
    for (const engine of this.engines.resolved().values()) engine.helper?.(name, fn)
    return this
  }

  /** Adds a source transform run before templates compile. @example `views.preprocess(fn)` */
  preprocess(fn: Preprocessor): this {
    this.preprocessors.push(fn)
    return this
  }

  /** Data every view sees. @example `views.share('appName', 'Shop')` */
  share(key: string, value: unknown): this {
    this.shared[key] = value
    return this
  }

  /**
   * Data computed per request for every view. `names` says which keys it
   * gives, for the checks that read templates without rendering them
   * (`kiln check`): a name a template reads must come from somewhere.
   *
   * @example
   * ```ts
   * views.composer((ctx) => ({ path: ctx.request.path }), ['path'])
   * ```
   */
  composer(fn: ViewComposer, names: readonly string[] = []): this {
    this.composers.push(fn)
    for (const name of names) this.composedNames.add(name)
    return this
  }

  /**
   * The names every view's data has besides what its renderer passes: the
   * shared keys and those the composers declared.
   *
   * @example
   * ```ts
   * views.dataNames() // ['appName', 'csrfToken', 'user', 'basePath']
   * ```
   */
  dataNames(): string[] {
    return [...new Set([...Object.keys(this.shared), ...this.composedNames])]
  }

  /** The default engine, with every registered helper. @example `views.engine().exists('home')` */
  engine(name?: string): ViewEngine {
    const engine = this.engines.connection(name)
    // An engine resolved after helpers were added gets them once; `helper()` keeps resolved engines up to date.
    if (!this.primed.has(engine)) {
      for (const [helper, fn] of this.helpers) engine.helper?.(helper, fn)
      this.primed.add(engine)
    }
    return engine
  }

  /**
   * Renders a view to HTML. With a request context, composers add their
   * data; `options` change how the template compiles (block markers for
   * components, see `RenderOptions`).
   *
   * @example
   * ```ts
   * await views.render('emails/welcome', { name: 'Ada' })
   * await views.render('components/counter', data, ctx, { blockMarkers: {} })
   * ```
   */
  async render(name: string, data: Record<string, unknown> = {}, ctx?: HttpContext, options?: RenderOptions): Promise<string> {
    return this.engine().render(name, await this.viewData(data, ctx), options)
  }

  /**
   * Renders a template given as source with the default engine (helpers,
   * partials, shared data and composers as for a view).
   *
   * @example
   * ```ts
   * await views.renderInline('<p>Hello {{name}}</p>', { name: 'Ada' })
   * ```
   */
  async renderInline(source: string, data: Record<string, unknown> = {}, ctx?: HttpContext, options?: RenderOptions): Promise<string> {
    const engine = this.engine()
    if (!engine.renderInline) throw new KilnError('The default view engine cannot render inline templates.', { code: 'E_VIEW_INLINE' })
    return engine.renderInline(source, await this.viewData(data, ctx), options)
  }

  /**
   * A view's template source after the preprocessors, from the default
   * engine: undefined when the view does not exist or the engine cannot
   * give sources. Components use it to render one island of a view.
   *
   * @example
   * ```ts
   * views.source('components/dashboard')
   * ```
   */
  source(name: string): string | undefined {
    return this.engine().source?.(name)
  }

  /**
   * Tells every engine in use that a view file changed on disk, so each
   * drops what it compiled from it (`kiln dev` does this on every save).
   *
   * @example
   * ```ts
   * views.forget('/srv/app/resources/views/home.hbs')
   * ```
   */
  forget(file: string): void {
    for (const engine of this.engines.resolved().values()) engine.forget?.(file)
    for (const listener of this.forgetListeners) listener(file)
  }

  /**
   * Hears of each view file `forget` is told changed (under `kiln dev`, on
   * every save), after the engines dropped it: the components' template
   * check runs again for it.
   *
   * @example
   * ```ts
   * views.onForget((file) => console.log(`${file} changed`))
   * ```
   */
  onForget(listener: (file: string) => void): this {
    this.forgetListeners.push(listener)
    return this
  }

  private async viewData(data: Record<string, unknown>, ctx?: HttpContext): Promise<Record<string, unknown>> {
    if (!ctx && this.composers.length === 0) return { ...this.shared, ...data }
    const composed: Record<string, unknown> = {}
    if (ctx) for (const composer of this.composers) Object.assign(composed, await composer(ctx))
    return { ...this.shared, ...composed, ...data }
  }
}
