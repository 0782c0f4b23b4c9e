import { morphInto } from '../../../client/apply.ts'
import { onEffect } from '../../../client/effects.ts'

// An island's new HTML replaces only the inside of its `wire:island` element.
onEffect<Record<string, string>>('islands', (component, islands) => {
  for (const [name, html] of Object.entries(islands)) {
    const island = component.el.querySelector(`[wire\\:island="${CSS.escape(name)}"]`)
    if (island) morphInto(component, island as HTMLElement, `<div>${html}</div>`, true)
  }
})
