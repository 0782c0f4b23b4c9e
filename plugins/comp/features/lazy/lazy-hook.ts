import { HttpException } from '../../../../core/index.ts'
import type { ComponentHook } from '../../lifecycle/component-hook.ts'
import type { PendingMount } from '../../protocol/snapshot.ts'
import { dehydrate, hydrate } from '../../state/state.ts'
import { LAZY_OPTIONS, lazyMode } from './lazy-mode.ts'
import { placeholderHtml } from './placeholder.ts'

const PENDING = Symbol('comp.lazy.pending')

/**
 * Lazy and deferred components (`static lazy`, `static defer`, or one use's
 * `lazy=true` / `defer=true`; `lazy=false` turns a lazy class off there):
 * the first render is a placeholder (`placeholder(params)`, else `static
 * lazyPlaceholder`) and the mount parameters wait in the snapshot
 * (`lazy`); the browser's first call is `$load`, which mounts and renders
 * the component. Until then nothing else runs: no `hydrate()`, no render,
 * and any other first call is a 422. The `lazy` and `defer` options never
 * reach the component's `mount()`.
 *
 * @example
 * ```ts
 * const features = [lazy, ...]
 * ```
 */
export const lazy: ComponentHook = {
  name: 'lazy',
  async mount(c, params) {
    const mode = lazyMode(c.Class, params)
    // The options are this feature's, not the component's: the hooks have their own copy of the parameters to take them from.
    for (const option of LAZY_OPTIONS) delete params[option]
    if (!mode) return
    const { data, types } = dehydrate(params, c.name)
    c.set(PENDING, { mode, params: data, types } satisfies PendingMount)
    c.placeholder = await placeholderHtml(c.services.views, c.scope, params)
  },
  hydrate(c, memo) {
    if (!memo.lazy) return
    if (c.request?.payload.calls[0]?.method !== '$load') throw new HttpException(422, `${c.Class.name} has not loaded yet: send $load first.`)
    c.set(PENDING, memo.lazy)
    c.skipHydrate = true
    c.skipRender = true
  },
  calls: {
    async $load(c) {
      const pending = c.get<PendingMount>(PENDING)
      if (!pending) return
      await c.boot(await hydrate(pending.params, pending.types, { app: c.services.app, ctx: c.run.ctx }))
      c.set(PENDING, undefined)
      c.skipRender = false
    },
  },
  dehydrate(c) {
    c.memo.lazy = c.get<PendingMount>(PENDING)
  },
}
