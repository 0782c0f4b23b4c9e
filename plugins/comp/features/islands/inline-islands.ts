import { createHash } from 'node:crypto'
import Handlebars from 'handlebars'
import { HttpException, KilnError, type ViewManager } from '../../../../core/index.ts'
import { COMPONENT_RENDER, componentView, type RenderScope } from '../../rendering/render.ts'

/** Island names: plain enough to sit in a CSS selector and in a `$loadIsland('…')` call unescaped. */
export const ISLAND_NAME = /^[\w.-]{1,100}$/

/** Scopes rendering one inline island alone: its helper gives that island's inner HTML, real content even if lazy. */
const renderingOnly = new WeakMap<RenderScope, string>()
/** Scopes of a component's first render: lazy and deferred islands show their placeholder there. */
const firstRenders = new WeakSet<RenderScope>()
/** Each template source's inline islands, name → the block's own source (from `{{#island` to `{{/island}}`). */
const blocksBySource = new Map<string, Map<string, string>>()

/**
 * Marks a render scope as a component's first render, when lazy and
 * deferred islands render their placeholder.
 *
 * @example
 * ```ts
 * markFirstRender(c.scope)
 * ```
 */
export function markFirstRender(scope: RenderScope): void {
  firstRenders.add(scope)
}

/**
 * True when lazy and deferred islands of this render show their
 * placeholder (a first render); later renders show their content.
 *
 * @example
 * ```ts
 * if (isFirstRender(scope)) return placeholder
 * ```
 */
export function isFirstRender(scope: RenderScope): boolean {
  return firstRenders.has(scope)
}

/**
 * The island being rendered alone in this scope, if any: its block helper
 * then gives only its inner HTML.
 *
 * @example
 * ```ts
 * if (renderingAlone(scope) === name) return options.fn(this)
 * ```
 */
export function renderingAlone(scope: RenderScope): string | undefined {
  return renderingOnly.get(scope)
}

/**
 * The inline islands (`{{#island "name"}}…{{/island}}`) of a template
 * source, by name, each as its own source. Worked out once per source.
 *
 * @example
 * ```ts
 * inlineIslands('<div>{{#island "stats"}}{{visits}}{{/island}}</div>').get('stats')
 * // '{{#island "stats"}}{{visits}}{{/island}}'
 * ```
 */
export function inlineIslands(source: string): Map<string, string> {
  const key = createHash('sha256').update(source).digest('base64url')
  let blocks = blocksBySource.get(key)
  if (blocks) return blocks
  blocks = new Map()
  const lineStarts = [0]
  for (let i = 0; i < source.length; i++) if (source[i] === '\n') lineStarts.push(i + 1)
  const offset = (position: { line: number; column: number }) => lineStarts[position.line - 1]! + position.column
  const walk = (nodes: hbs.AST.Statement[] | undefined) => {
    for (const node of nodes ?? []) {
      if (node.type !== 'BlockStatement') continue
      const block = node as hbs.AST.BlockStatement
      const name = (block.params[0] as hbs.AST.StringLiteral | undefined)?.value
      if ((block.path as hbs.AST.PathExpression).original === 'island' && typeof name === 'string' && !blocks!.has(name))
        blocks!.set(name, source.slice(offset(block.loc.start), offset(block.loc.end)))
      walk(block.program?.body)
      walk(block.inverse?.body)
    }
  }
  walk(Handlebars.parse(source).body)
  // Sources come from the app's views and code, so they are few; the bound only guards memory.
  if (blocksBySource.size >= 500) blocksBySource.clear()
  blocksBySource.set(key, blocks)
  return blocks
}

/**
 * Renders one inline island of a component alone, inner HTML only: the
 * component's view (from `render()`, `static template` or `components/<name>`) is searched for
 * the island's block, and only that block renders, with the component's
 * data. Undefined when the view has no such island.
 *
 * @example
 * ```ts
 * const html = await renderInlineIsland(views, scope, 'dashboard', 'stats')
 * ```
 */
export async function renderInlineIsland(views: ViewManager, scope: RenderScope, componentName: string, island: string): Promise<string | undefined> {
  const view = await componentView(scope, componentName)
  const source = view.source ?? views.source(view.name)
  const { data } = view
  const block = source === undefined ? undefined : inlineIslands(source).get(island)
  if (block === undefined) return undefined
  renderingOnly.set(scope, island)
  try {
    return await views.renderInline(block, data, scope.ctx, COMPONENT_RENDER)
  } finally {
    renderingOnly.delete(scope)
  }
}

/**
 * The 422 for an island a request names that the component does not have.
 *
 * @example
 * ```ts
 * throw unknownIsland(c.Class.name, name)
 * ```
 */
export function unknownIsland(componentClass: string, island: string): HttpException {
  return new HttpException(422, `${componentClass} has no island "${island.slice(0, 100)}".`)
}

/**
 * The error for a `{{#island}}` whose name is missing or not plain.
 *
 * @example
 * ```ts
 * if (!ISLAND_NAME.test(name)) throw badIslandName(name)
 * ```
 */
export function badIslandName(name: unknown): KilnError {
  return new KilnError(`{{island}} needs a plain name (letters, digits, "_", "-", "."): {{#island "stats"}}…{{/island}}, not ${JSON.stringify(name)}.`, {
    code: 'E_COMP_ISLAND',
  })
}
