import { HttpException } from '../../../../core/index.ts'
import { metaOf } from '../../state/class-meta.ts'
import type { ComponentHook } from '../../lifecycle/component-hook.ts'
import { fillPlaceholders } from './echo-names.ts'
import { listenerArguments } from './listener-params.ts'

/**
 * Events: the snapshot lists what the component listens for (`@on`), so
 * the browser routes `dispatch`ed events to it, and `$event(name, data)`
 * runs its listeners (the data's keys as named parameters), or is refused
 * with 403 when it has none for that event. `this.dispatch()` goes back as the `dispatches` effect.
 * Echo listeners are listed with their `{property}` placeholders filled
 * from the state (the browser subscribes to those channels), and `$event`
 * finds them by that filled name.
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
      const methods = typeof event === 'string' ? listenersFor(c.Class, c.component, event) : undefined
      if (!methods) throw new HttpException(403, `${c.Class.name} does not listen for "${String(event).slice(0, 100)}".`)
      // Event data is the browser's: only a plain object's own keys become named parameters (listener-params.ts).
      const given = data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {}
      const self = c.component as unknown as Record<string, (...params: unknown[]) => unknown>
      for (const method of methods) await self[method]!.apply(c.component, listenerArguments(self[method]!, given))
    },
  },
  dehydrate(c) {
    const names: string[] = []
    for (const name of metaOf(c.Class).listeners.keys()) {
      // A placeholder without a usable value leaves its listener out: it has no channel to subscribe to.
      const filled = fillPlaceholders(name, c.component)
      if (filled !== null && !names.includes(filled)) names.push(filled)
    }
    c.memo.listeners = names
  },
}

/** The methods listening for an event name: by the name itself, or an echo listener whose filled-in name it is. */
function listenersFor(Class: Function, component: object, event: string): readonly string[] | undefined {
  const listeners = metaOf(Class).listeners
  // A name with placeholders is heard only by its filled-in form.
  const direct = event.includes('{') ? undefined : listeners.get(event)
  if (direct) return direct
  const found: string[] = []
  for (const [name, methods] of listeners) if (name.includes('{') && fillPlaceholders(name, component) === event) found.push(...methods)
  return found.length > 0 ? found : undefined
}
