import type { ComponentHook } from '../../lifecycle/component-hook.ts'
import { assetsRenderedInUpdate, IN_UPDATE, takeRenderedBlocks } from './script-helpers.ts'

declare module '../../protocol/snapshot.ts' {
  interface ServerMemo {
    /** The `@script` blocks its view uses, by hash: the browser runs each once for this component. */
    scripts?: string[]
    /** The `@assets` blocks its view used, by key: those are not sent again with its answers. */
    assets?: string[]
  }
}

/** The assets keys an update request has put in an answer already (a bundled request answers many components). */
const SENT = Symbol.for('kiln.comp.assets.sent')

/**
 * Scripts and assets of a component (`@script`, `@assets`): the snapshot
 * lists the scripts its view uses, which the browser loads by address and
 * runs once per component (`scripts` in the memo, and in an update's
 * effects); an update's answer carries the assets that its renders used
 * (the component's, and those of children it mounted) that this component
 * had not sent before, for the browser to add to the page once.
 *
 * @example
 * ```ts
 * const features = [scripts, ...]
 * ```
 */
export const scripts: ComponentHook = {
  name: 'scripts',
  hydrate(c) {
    c.scope.ctx?.locals.set(IN_UPDATE, true)
  },
  dehydrate(c) {
    const blocks = takeRenderedBlocks(c.component)
    if (blocks && blocks.scripts.size > 0) {
      c.memo.scripts = [...blocks.scripts]
      if (!c.mounting) c.effects.scripts = c.memo.scripts
    }
    const before = Array.isArray(c.request?.memo.assets) ? c.request.memo.assets : []
    const known = new Set([...before, ...(blocks?.assets.keys() ?? [])])
    if (!c.mounting) {
      const ctx = c.scope.ctx
      const sent = (ctx?.locals.get(SENT) as Set<string> | undefined) ?? new Set<string>()
      ctx?.locals.set(SENT, sent)
      const fresh: Record<string, string> = {}
      for (const [key, html] of assetsRenderedInUpdate(ctx)) {
        if (before.includes(key) || sent.has(key)) continue
        fresh[key] = html
        sent.add(key)
        // Sent with this component's answer (its own, or a child's it mounted): not again with its next ones.
        known.add(key)
      }
      if (Object.keys(fresh).length > 0) c.effects.assets = fresh
    }
    if (known.size > 0) c.memo.assets = [...known]
  },
}
