/**
 * How one render compiles its template, beyond the view's source.
 *
 * @example
 * ```ts
 * await views.render('components/counter', data, ctx, { blockMarkers: { except: ['island'] } })
 * ```
 */
export interface RenderOptions {
  /**
   * Comments around the output of every block in element content
   * (`<!--[if BLOCK]><![endif]-->` … `<!--[if ENDBLOCK]><![endif]-->`), so a
   * DOM morph patches each block as a unit: for templates the browser
   * patches in place (components). `except` names block helpers left bare.
   */
  blockMarkers?: { except?: readonly string[] }
}

/** What a view engine is asked to do. */
export interface ViewEngine {
  /** Renders a view by name (`posts/show`) with data. */
  render(name: string, data: Record<string, unknown>, options?: RenderOptions): Promise<string>
  /** True when the view exists. */
  exists(name: string): boolean
  /** Renders a template given as source, when the engine can. */
  renderInline?(source: string, data: Record<string, unknown>, options?: RenderOptions): Promise<string>
  /** A view's template source after the preprocessors (no layout line), when the engine has one: for rendering a part of a view. */
  source?(name: string): string | undefined
  /** Drops what the engine compiled from this file (a view that changed on disk), when it caches. */
  forget?(file: string): void
}

/** A source transform run before compiling (`@compScripts` → `{{{compScripts}}}`). */
export type Preprocessor = (source: string, meta: { name: string }) => string

/** A template helper. */
export type ViewHelper = (...args: any[]) => unknown
