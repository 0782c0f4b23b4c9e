import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import type Handlebars from 'handlebars'
import { KilnError } from '../support/errors.ts'
import { asyncCapable, withAsyncHelpers } from './async-helpers.ts'
import { handlebars } from './handlebars-module.ts'
import { markedTemplate } from './block-markers.ts'
import { loopEach } from './loop-data.ts'
import type { Preprocessor, RenderOptions, ViewEngine, ViewHelper } from './view-engine.ts'

const RUNTIME_OPTIONS = { allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false }
const LAYOUT_DIRECTIVE = /^\s*\{\{!<\s*([\w./-]+)\s*\}\}\s*\n?/

/**
 * Handlebars views from one folder, in an isolated Handlebars environment
 * per app. Every view is also a partial by its path (`{{> partials/nav}}`,
 * `{{#> layouts/app}}...{{/layouts/app}}`). A view may name its layout on
 * its first line, `{{!< layouts/app}}`; the layout renders the view with
 * `{{body}}` (already HTML, so double braces print it as is; `{{{body}}}`
 * works the same). Every `each` also gives `@iteration`, `@count`,
 * `@remaining`, `@even`, `@odd`, `@depth` and `@parent` (see
 * `loop-data.ts`). Compiled templates are cached unless `cache` is off.
 * A helper may return a Promise: the render waits for it (see
 * `async-helpers.ts`). With `{ blockMarkers }` a render's template gets
 * comments around its blocks (see `block-markers.ts`), compiled and cached
 * apart from the plain one.
 *
 * @example
 * ```ts
 * const engine = new HandlebarsEngine('/srv/app/resources/views', { cache: true })
 * engine.helper('upper', (s: string) => s.toUpperCase())
 * await engine.render('home', { name: 'Ada' })
 * ```
 */
export class HandlebarsEngine implements ViewEngine {
  private readonly hbs = handlebars().create()
  /** Compiled views by name, then by variant ('' plain, else the block markers' options). */
  private readonly compiled = new Map<string, Map<string, { template: Handlebars.TemplateDelegate; layout?: string }>>()
  /** Inline templates by variant, then by source. */
  private readonly inline = new Map<string, Map<string, Handlebars.TemplateDelegate>>()
  private partialsLoaded = false

  constructor(
    readonly root: string,
    private readonly options: { cache: boolean; preprocessors?: Preprocessor[] },
  ) {
    // Handlebars' own `each`, plus Laravel's `$loop` data (`@iteration`, `@count`, `@remaining`, ...).
    this.hbs.registerHelper('each', loopEach(this.hbs.helpers.each!))
  }

  /** Registers a helper. @example `engine.helper('money', (n) => n.toFixed(2))` */
  helper(name: string, fn: ViewHelper): void {
    this.hbs.registerHelper(name, asyncCapable(fn) as Handlebars.HelperDelegate)
  }

  exists(name: string): boolean {
    return this.fileFor(name) !== undefined
  }

  async render(name: string, data: Record<string, unknown>, options: RenderOptions = {}): Promise<string> {
    this.loadPartials()
    const { template, layout } = this.compile(name, options)
    const body = await withAsyncHelpers(() => template(data, RUNTIME_OPTIONS))
    if (!layout) return body
    return this.render(layout, { ...data, body: new (handlebars().SafeString)(body) })
  }

  /**
   * Renders a template given as source (a component's inline template), with
   * the same helpers, partials and preprocessors as a view. Compiled once per
   * distinct source (and block markers' options).
   *
   * @example
   * ```ts
   * await engine.renderInline('<p>{{count}}</p>', { count: 1 })
   * ```
   */
  async renderInline(source: string, data: Record<string, unknown>, options: RenderOptions = {}): Promise<string> {
    this.loadPartials()
    // Keyed by the source itself: a component's template is one string whose hash V8 works out once (a digest cost every render).
    const variant = variantOf(options)
    let sources = this.inline.get(variant)
    if (!sources) this.inline.set(variant, (sources = new Map()))
    let template = sources.get(source)
    if (!template) {
      template = this.build(this.preprocess(source, 'inline'), options)
      // Sources come from code, so they are few; the bound only guards against a template built from data.
      if (sources.size >= 1000) sources.clear()
      sources.set(source, template)
    }
    return withAsyncHelpers(() => template(data, RUNTIME_OPTIONS))
  }

  /**
   * A view's source as it compiles: preprocessed, without its layout line.
   * Undefined when there is no such view.
   *
   * @example
   * ```ts
   * engine.source('components/dashboard') // '<div>{{#island "stats"}}...'
   * ```
   */
  source(name: string): string | undefined {
    const file = this.fileFor(name)
    return file === undefined ? undefined : this.preprocess(readFileSync(file, 'utf8'), name).replace(LAYOUT_DIRECTIVE, '')
  }

  /**
   * Drops what was compiled from one view file (its template, and its
   * partial, read again from disk), so the next render sees the file as it
   * is now. `kiln dev` calls it when a view changes; other files are ignored.
   *
   * @example
   * ```ts
   * engine.forget('/srv/app/resources/views/home.hbs')
   * ```
   */
  forget(file: string): void {
    const rel = relative(this.root, file)
    if (rel.startsWith('..') || !rel.endsWith('.hbs')) return
    const name = rel.replace(/\\/g, '/').replace(/\.hbs$/, '')
    this.compiled.delete(name)
    if (!this.partialsLoaded) return
    if (existsSync(file)) this.hbs.registerPartial(name, this.preprocess(readFileSync(file, 'utf8'), name).replace(LAYOUT_DIRECTIVE, ''))
    else this.hbs.unregisterPartial(name)
  }

  private compile(name: string, options: RenderOptions): { template: Handlebars.TemplateDelegate; layout?: string } {
    const variant = variantOf(options)
    const cached = this.options.cache ? this.compiled.get(name)?.get(variant) : undefined
    if (cached) return cached
    const file = this.fileFor(name)
    if (!file) throw new KilnError(`View "${name}" not found: looked for ${join(this.root, `${name}.hbs`)}.`)
    let source = this.preprocess(readFileSync(file, 'utf8'), name)
    const layout = LAYOUT_DIRECTIVE.exec(source)?.[1]
    if (layout) source = source.replace(LAYOUT_DIRECTIVE, '')
    const entry = { template: this.build(source, options), layout }
    let variants = this.compiled.get(name)
    if (!variants) this.compiled.set(name, (variants = new Map()))
    variants.set(variant, entry)
    return entry
  }

  /** Compiles a source, with block markers when asked (the pass runs here, once per cached template). */
  private build(source: string, options: RenderOptions): Handlebars.TemplateDelegate {
    const input = options.blockMarkers ? markedTemplate(this.hbs, source, options.blockMarkers) : source
    return this.hbs.compile(input, { strict: false })
  }

  private preprocess(source: string, name: string): string {
    return (this.options.preprocessors ?? []).reduce((text, fn) => fn(text, { name }), source)
  }

  private loadPartials(): void {
    if (this.partialsLoaded && this.options.cache) return
    for (const file of listViews(this.root)) {
      const name = relative(this.root, file)
        .replace(/\\/g, '/')
        .replace(/\.hbs$/, '')
      this.hbs.registerPartial(name, this.preprocess(readFileSync(file, 'utf8'), name).replace(LAYOUT_DIRECTIVE, ''))
    }
    this.partialsLoaded = true
  }

  private fileFor(name: string): string | undefined {
    if (!/^[\w-]+(\/[\w.-]+)*$/.test(name) || name.includes('..')) return undefined
    const file = join(this.root, `${name}.hbs`)
    return existsSync(file) ? file : undefined
  }
}

const variants = new WeakMap<object, string>()

/** The cache key part for a render's options: '' for a plain template; worked out once per options object. */
function variantOf(options: RenderOptions): string {
  const markers = options.blockMarkers
  if (!markers) return ''
  let variant = variants.get(markers)
  if (variant === undefined) variants.set(markers, (variant = `markers:${(markers.except ?? []).join(',')}`))
  return variant
}

function listViews(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry)
    return statSync(path).isDirectory() ? listViews(path) : entry.endsWith('.hbs') ? [path] : []
  })
}
