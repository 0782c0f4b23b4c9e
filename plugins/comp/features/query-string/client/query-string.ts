import { onEffect } from '../../../client/effects.ts'
import type { PageComponent } from '../../../client/page-component.ts'
import { components } from '../../../client/registry.ts'

/** Each component's URL keys' values as last written or restored, so back and forward ask only components whose keys changed. */
const shown = new WeakMap<PageComponent, string>()
let push = false

const keysOf = (component: PageComponent) => (component.memo.url as string[] | undefined) ?? []
const showing = (component: PageComponent) => {
  const params = new URL(location.href).searchParams
  return JSON.stringify(keysOf(component).map((key) => params.getAll(key)))
}

// Registered before `queryString`, whose handler then pushes a history entry instead of replacing the current one.
onEffect<true>('queryPush', () => (push = true))

// Keeps the address bar's query string in step with the component: `null` drops a key.
onEffect<Record<string, unknown>>('queryString', (component, values) => {
  write(values, push)
  push = false
  shown.set(component, showing(component))
})

function write(values: Record<string, unknown>, pushing: boolean): void {
  const url = new URL(location.href)
  for (const [key, value] of Object.entries(values)) {
    url.searchParams.delete(key)
    if (value === null || value === undefined) continue
    if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, String(item))
    else url.searchParams.set(key, typeof value === 'object' ? JSON.stringify(value) : String(value))
  }
  if (url.href === location.href) return
  // Not navigation's state: back to this entry restores properties, it does not load the page again.
  if (pushing) history.pushState({ compUrl: true }, '', url)
  else history.replaceState(history.state, '', url)
}

// A first render's values the URL does not show yet (`keep`, `except`, a value set in mount()).
document.addEventListener('alpine:initialized', () => {
  for (const component of components.values()) {
    if (component.memo.urlInit) write(component.memo.urlInit as Record<string, unknown>, false)
    shown.set(component, showing(component))
  }
})

// Back and forward: each component whose keys changed takes its properties from the URL, in one `$syncUrl` call.
window.addEventListener('popstate', (event) => {
  // An entry of wire:navigate: that visit is loaded again whole.
  if ((event.state as { compNavigate?: boolean } | null)?.compNavigate) return
  const params = new URL(location.href).searchParams
  for (const component of components.values()) {
    const keys = keysOf(component)
    if (keys.length === 0 || shown.get(component) === showing(component)) continue
    shown.set(component, showing(component))
    const query: Record<string, string | string[]> = {}
    for (const key of keys) {
      const all = params.getAll(key)
      if (all.length > 0) query[key] = all.length === 1 ? all[0]! : all
    }
    void component.call('$syncUrl', [query])
  }
})
