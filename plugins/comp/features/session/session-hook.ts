import { metaOf } from '../../state/class-meta.ts'
import type { ComponentHook } from '../../lifecycle/component-hook.ts'
import { publicProperties } from '../../state/state.ts'
import { coerce } from '../../state/updates.ts'
import { sessionProperties } from './session-decorator.ts'

/** Set on a trip whose mount-time steps ran (a first render, or a lazy component loading). */
const MOUNTED = Symbol('comp.session.mounted')

/**
 * Properties kept in the session (`@session()`): after `mount()`, each
 * starts from the value the session keeps for the component's name and
 * key, brought to the property's type as a value from the browser would
 * be (a value that does not fit is ignored and the property keeps its
 * own). An update that changed one keeps its new value in the session.
 * Nothing is read or written on a request without a session.
 *
 * @example
 * ```ts
 * const features = [sessionState, ...]
 * ```
 */
export const sessionState: ComponentHook = {
  name: 'session',
  async mounted(c) {
    const store = c.run.ctx?.session
    if (!store) return
    c.set(MOUNTED, true)
    const self = c.component as unknown as Record<string, unknown>
    const { kinds } = metaOf(c.Class)
    const state = new Set(publicProperties(c.component))
    for (const { property, sessionKey } of sessionProperties(c.Class, c.name)) {
      const key = sessionKey(c.component)
      if (!state.has(property) || !store.has(key)) continue
      const kept = structuredClone(store.get(key))
      self[property] = await coerce(self[property], kept, property, { app: c.services.app, ctx: c.run.ctx }, kinds.get(property) ?? 'undeclared').catch(
        () => self[property],
      )
    }
  },
  dehydrate(c) {
    const store = c.run.ctx?.session
    // A first render writes nothing: the value is the one kept, or the component's own until the user changes it.
    if (!store || !c.request) return
    const before = c.request.memo.data
    for (const { property, sessionKey } of sessionProperties(c.Class, c.name)) {
      if (!(property in c.data)) continue
      const changed = c.get(MOUNTED) === true || JSON.stringify(before[property]) !== JSON.stringify(c.data[property])
      if (changed) store.put(sessionKey(c.component), structuredClone(c.data[property]))
    }
  },
}
