import { HttpException } from '../../../../core/index.ts'
import { metaOf } from '../../class-meta.ts'
import type { ComponentHook } from '../../lifecycle/component-hook.ts'
import { listenerArguments } from './listener-params.ts'

/**
 * Events: the snapshot lists what the component listens for (`@on`), so
 * the browser routes `dispatch`ed events to it, and `$event(name, data)`
 * runs its listeners (the data's keys as named parameters), or is refused
 * with 403 when it has none for that event. `this.dispatch()` goes back as the `dispatches` effect.
 *
 * @example
 * ```ts
 * const features = [events, ...]
 * ```
 */
export const events: ComponentHook = {
  name: 'events',
  calls: {
    async $event(c, [event, data]) {
      const methods = typeof event === 'string' ? metaOf(c.Class).listeners.get(event) : undefined
      if (!methods) throw new HttpException(403, `${c.Class.name} does not listen for "${String(event).slice(0, 100)}".`)
      // Event data is the browser's: only a plain object's own keys become named parameters (listener-params.ts).
      const given = data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {}
      const self = c.component as unknown as Record<string, (...params: unknown[]) => unknown>
      for (const method of methods) await self[method]!.apply(c.component, listenerArguments(self[method]!, given))
    },
  },
  dehydrate(c) {
    c.memo.listeners = [...metaOf(c.Class).listeners.keys()]
  },
}
