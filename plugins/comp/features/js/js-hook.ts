import { metaOf } from '../../class-meta.ts'
import type { ComponentHook } from '../../lifecycle/component-hook.ts'

/**
 * JavaScript from the server: `@js()` methods become client-side actions
 * in the snapshot (`$wire.$js.<name>()`), and `this.js(code)` runs after
 * this response (the `js` effect).
 *
 * @example
 * ```ts
 * const features = [js, ...]
 * ```
 */
export const js: ComponentHook = {
  name: 'js',
  async dehydrate(c) {
    const actions: Record<string, string> = {}
    for (const name of metaOf(c.Class).js) actions[name] = String(await (c.component as unknown as Record<string, () => unknown>)[name]!())
    c.memo.js = actions
    if (c.run.js.length > 0) c.effects.js = c.run.js
  },
}
