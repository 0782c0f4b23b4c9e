import Handlebars from 'handlebars'
import { currentHttpContext, KilnError, type HttpContext } from '../../../../core/index.ts'
import { cspNonce } from '../../assets/scripts.ts'
import type { Component } from '../../component.ts'
import { escapeAttribute } from '../../rendering/html-root.ts'
import { scopeOf } from '../../rendering/render.ts'

interface BlockOptions {
  fn?: (context: unknown, options?: { data?: unknown }) => string
  data?: { root?: Record<string | symbol, unknown> }
}

/** What one render of a component used: its `@script` blocks (by hash) and `@assets` blocks (key → HTML). */
export interface RenderedBlocks {
  scripts: Set<string>
  assets: Map<string, string>
}

const rendered = new WeakMap<Component, RenderedBlocks>()

/** Set on an update request (the scripts hook's `hydrate`): assets then go in the answer's effects, not in the HTML. */
export const IN_UPDATE = Symbol.for('kiln.comp.scripts.in-update')
/** The assets keys a page request has printed already: each prints once, however many components use it. */
const PRINTED = Symbol.for('kiln.comp.assets.printed')
/** The assets an update request rendered (its components and the children they mounted): key → HTML. */
const RENDERED_IN_UPDATE = Symbol.for('kiln.comp.assets.rendered')

const HASH = /^[a-f0-9]{20}$/

function blocksOf(component: Component): RenderedBlocks {
  let blocks = rendered.get(component)
  if (!blocks) rendered.set(component, (blocks = { scripts: new Set(), assets: new Map() }))
  return blocks
}

/**
 * What the component's last render used, forgotten as it is read (the
 * scripts hook reads it once, as the snapshot is made).
 *
 * @example
 * ```ts
 * const blocks = takeRenderedBlocks(c.component) // { scripts: Set {'3f…'}, assets: Map {} }
 * ```
 */
export function takeRenderedBlocks(component: Component): RenderedBlocks | undefined {
  const blocks = rendered.get(component)
  rendered.delete(component)
  return blocks
}

/**
 * The assets an update request rendered, key → HTML.
 *
 * @example
 * ```ts
 * assetsRenderedInUpdate(ctx) // Map { 'a1…' => '<script src="/chart.js"></script>' }
 * ```
 */
export function assetsRenderedInUpdate(ctx: HttpContext | undefined): Map<string, string> {
  return (ctx?.locals.get(RENDERED_IN_UPDATE) as Map<string, string> | undefined) ?? new Map()
}

/**
 * `{{compScript "<hash>"}}`, what `@script … @endscript` becomes: notes that
 * the component rendering uses that script, and prints nothing.
 *
 * @example
 * ```ts
 * app.views.helper('compScript', compScriptHelper)
 * ```
 */
export function compScriptHelper(hash: unknown, options: BlockOptions): string {
  if (typeof hash !== 'string' || !HASH.test(hash))
    throw new KilnError('{{compScript}} is written by @script … @endscript; write that instead.', { code: 'E_COMP_SCRIPT' })
  const scope = scopeOf(options)
  if (!scope)
    throw new KilnError('@script … @endscript belongs in a component view: a page or layout script is a <script nonce="…"> tag of its own.', {
      code: 'E_COMP_SCRIPT',
    })
  blocksOf(scope.component).scripts.add(hash)
  return ''
}

/**
 * `{{#compAssets "<key>"}}…{{/compAssets}}`, what `@assets … @endassets`
 * becomes. In a page, the block's tags print the first time the page uses
 * them (later components of that page print nothing), each with the
 * page's CSP nonce and `data-comp-asset="<key>"`; the browser moves them to
 * `<head>`. In an update they print nothing: they go in the answer, and the
 * browser adds them to `<head>` unless the page has them.
 *
 * @example
 * ```ts
 * app.views.helper('compAssets', compAssetsHelper)
 * ```
 */
export function compAssetsHelper(this: unknown, key: unknown, options: BlockOptions): Handlebars.SafeString | string {
  if (typeof key !== 'string' || !HASH.test(key) || typeof options?.fn !== 'function')
    throw new KilnError('{{#compAssets}} is written by @assets … @endassets; write that instead.', { code: 'E_COMP_SCRIPT' })
  const html = options.fn(this, { data: options.data }).trim()
  const scope = scopeOf(options)
  const ctx = scope?.ctx ?? currentHttpContext()
  if (scope) blocksOf(scope.component).assets.set(key, html)
  if (ctx?.locals.get(IN_UPDATE)) {
    let inUpdate = ctx.locals.get(RENDERED_IN_UPDATE) as Map<string, string> | undefined
    if (!inUpdate) ctx.locals.set(RENDERED_IN_UPDATE, (inUpdate = new Map()))
    inUpdate.set(key, html)
    return ''
  }
  if (ctx) {
    let printed = ctx.locals.get(PRINTED) as Set<string> | undefined
    if (!printed) ctx.locals.set(PRINTED, (printed = new Set()))
    if (printed.has(key)) return ''
    printed.add(key)
  }
  return new Handlebars.SafeString(taggedAssets(html, key, pageNonce(ctx)))
}

/** The nonce of the Content-Security-Policy queued for this response, if any. */
function pageNonce(ctx: HttpContext | undefined): string | undefined {
  return ctx?.hasQueuedResponseState() ? cspNonce(ctx.response.headers.get('content-security-policy')) : undefined
}

/**
 * Assets tags marked with their block's key (how the browser knows what a
 * page has) and the page's nonce.
 *
 * @example
 * ```ts
 * taggedAssets('<script src="/a.js"></script>', 'k', 'n') // '<script data-comp-asset="k" nonce="n" src="/a.js"></script>'
 * ```
 */
export function taggedAssets(html: string, key: string, nonce: string | undefined): string {
  const extra = ` data-comp-asset="${escapeAttribute(key)}"${nonce ? ` nonce="${escapeAttribute(nonce)}"` : ''}`
  return html.replace(/<(script|link|style)\b/gi, (_tag, name: string) => `<${name}${extra}`)
}
