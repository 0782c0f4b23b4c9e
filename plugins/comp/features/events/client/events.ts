import { onEffect } from '../../../client/effects.ts'
import { dispatchEvent } from '../../../client/registry.ts'

// `this.dispatch()` on the server: to the page, and to the components that listen (`@on`).
onEffect<Array<{ name: string; params: Record<string, unknown>; to?: string; self?: true }>>('dispatches', (component, dispatches) => {
  for (const dispatch of dispatches) dispatchEvent(dispatch.name, dispatch.params, component, dispatch)
})
