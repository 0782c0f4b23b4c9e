import { HttpException } from '../../../../core/index.ts'
import type { ComponentHook } from '../../lifecycle/component-hook.ts'
import { placeholder } from '../../rendering/render.ts'
import type { PendingMount } from '../../protocol/snapshot.ts'
import { dehydrate, hydrate } from '../../state/state.ts'

const PENDING = Symbol('comp.lazy.pending')

/**
 * Lazy and deferred components (`static lazy`, `static defer`): the first
 * render is a placeholder and the mount parameters wait in the snapshot
 * (`lazy`); the browser's first call is `$load`, which mounts and renders
 * the component. Until then nothing else runs: no `hydrate()`, no render,
 * and any other first call is a 422.
 *
 * @example
 * ```ts
 * const features = [lazy, ...]
 * ```
 */
export const lazy: ComponentHook = {
  name: 'lazy',
  async mount(c, params) {
    if (!c.Class.lazy && !c.Class.defer) return
    const { data, types } = dehydrate(params, c.name)
    c.set(PENDING, { mode: c.Class.defer ? 'defer' : 'lazy', params: data, types } satisfies PendingMount)
    c.placeholder = await placeholder(c.services.views, c.scope)
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
