import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type * as TypeScript from 'typescript'
import type { Application } from '../../../../core/index.ts'
import type { ComponentClass } from '../../registry/registry.ts'
import { methodReturns, type Returned } from './method-returns.ts'

/** One template a component renders, and what its data holds besides the component's own names. */
export interface TemplateToCheck {
  /** The template source, preprocessed (`@comp(...)` as `{{{comp ...}}}`) as it compiles. */
  readonly source: string
  /** The file it is written in. */
  readonly file: string
  /** The file line of the source's first line. */
  readonly firstLine: number
  /** What `render()` passes with it (`view(name, data)`), when it does. */
  readonly data: Returned | undefined
}

/**
 * The templates a component renders, found as rendering finds them but
 * without running it: `render()`'s views when its source names them
 * (`return view('components/x', { … })`, `return 'components/x'`), else its
 * `static template`, else `components/<name>`; and its islands' views.
 * None when `render()` picks its view in a way that cannot be read, or the
 * view file does not exist (rendering reports that).
 *
 * @example
 * ```ts
 * componentTemplates(app, ts, 'counter', Counter) // [{ source: '<div>{{count}}</div>', file: '/srv/app/app/components/counter.ts', firstLine: 9, data: undefined }]
 * ```
 */
export function componentTemplates(app: Application, ts: typeof TypeScript | undefined, name: string, Class: ComponentClass): TemplateToCheck[] {
  const views = viewsRoot(app)
  const preprocess = (source: string, view: string) => preprocessed(app, source, view)
  const fromView = (view: string, data: Returned | undefined): TemplateToCheck[] => {
    const file = join(views, `${view}.hbs`)
    if (!/^[\w-]+(\/[\w.-]+)*$/.test(view) || !existsSync(file)) return []
    return [{ source: preprocess(readFileSync(file, 'utf8'), view), file, firstLine: 1, data }]
  }
  const islands = Object.values(Class.islandViews ?? {}).flatMap((view) => fromView(view, undefined))
  if (typeof Class.prototype.render === 'function') {
    const rendered = methodReturns(ts, Class.prototype.render)
    if (rendered.unknownView) return islands
    return [...rendered.views.flatMap((view) => fromView(view, rendered)), ...islands]
  }
  // Single-file components: the `html` tag's template knows the file and line it was written at.
  const template = (Class as { template?: { source: string; location?: string } }).template
  if (template && typeof template.source === 'string') {
    const at = /^(.*):(\d+)$/.exec(template.location ?? '')
    return [
      { source: preprocess(template.source, 'inline'), file: at?.[1] ?? `${Class.name} (static template)`, firstLine: Number(at?.[2] ?? 1), data: undefined },
      ...islands,
    ]
  }
  return [...fromView(`components/${name.replaceAll('.', '/')}`, undefined), ...islands]
}

/**
 * The folder of the app's views.
 *
 * @example
 * ```ts
 * viewsRoot(app) // '/srv/app/resources/views'
 * ```
 */
export function viewsRoot(app: Application): string {
  return resolve(app.root, app.config.get<string>('views.path', 'resources/views'))
}

/**
 * A template's source as it compiles: after the views' preprocessors (`@comp(...)` as `{{{comp ...}}}`).
 *
 * @example
 * ```ts
 * preprocessed(app, "@comp('counter')", 'home') // '{{{comp "counter"}}}'
 * ```
 */
export function preprocessed(app: Application, source: string, view: string): string {
  return app.views.preprocessors.reduce((text, step) => step(text, { name: view }), source)
}
