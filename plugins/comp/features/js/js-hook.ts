import { metaOf } from '../../state/class-meta.ts'
import type { ComponentContext, ComponentHook } from '../../lifecycle/component-hook.ts'

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
  dehydrate(c) {
    if (c.run.js.length > 0) c.effects.js = c.run.js
    const names = metaOf(c.Class).js
    // Awaited only for a component with `@js()` methods: a promise per update otherwise, for nothing.
    if (names.size > 0) return clientActions(c, names)
  },
}

async function clientActions(c: ComponentContext, names: Iterable<string>): Promise<void> {
  const actions: Record<string, string> = {}
  for (const name of names) actions[name] = String(await (c.component as unknown as Record<string, () => unknown>)[name]!())
  c.memo.js = actions
}
