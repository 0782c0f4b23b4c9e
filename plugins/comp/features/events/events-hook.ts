import { HttpException } from '../../../../core/index.ts'
import { metaOf } from '../../class-meta.ts'
import type { ComponentHook } from '../../lifecycle/component-hook.ts'

/**
 * Events: the snapshot lists what the component listens for (`@on`), so
 * the browser routes `dispatch`ed events to it, and `$event(name, data)`
 * runs its listeners, or is refused with 403 when it has none for that
 * event. `this.dispatch()` goes back as the `dispatches` effect.
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
      for (const method of methods) await (c.component as unknown as Record<string, (data: unknown) => unknown>)[method]!(data ?? {})
    },
  },
  dehydrate(c) {
    c.memo.listeners = [...metaOf(c.Class).listeners.keys()]
  },
}
