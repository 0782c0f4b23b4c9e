import { metaOf } from '../state/class-meta.ts'
import { publicProperties } from '../state/state.ts'
import { coerce } from '../state/updates.ts'
import { runFeatureHooks, type ComponentContext } from './component-hook.ts'
import { guarded } from './exception-hook.ts'

/**
 * Mount-time steps: the component's `boot()`, then parameters named like
 * public properties are assigned (in the property's type), the component's
 * `mount(params)` runs, then the features' `mounted` hooks (the query
 * string), then `booted()`. The component's hooks run under its
 * `exception()` hook.
 *
 * @example
 * ```ts
 * await bootComponent(c, { start: 5 })
 * ```
 */
export async function bootComponent(c: ComponentContext, params: Record<string, unknown>): Promise<void> {
  const { component, Class, services } = c
  await guarded(component, () => component.boot?.())
  const self = component as unknown as Record<string, unknown>
  const properties = new Set(publicProperties(component))
  const { kinds } = metaOf(Class)
  for (const [key, value] of Object.entries(params)) {
    if (!properties.has(key)) continue
    // Server code passes models, dates and files as they are; text (from a URL, a view) is brought to the property's type.
    if (serverObject(value)) self[key] = value
    else self[key] = await coerce(self[key], value, key, { app: services.app, ctx: c.run.ctx }, kinds.get(key)).catch(() => self[key])
  }
  await guarded(component, () => component.mount?.(params))
  const mounted = runFeatureHooks(services.features, 'mounted', c)
  if (mounted) await mounted
  await guarded(component, () => component.booted?.())
}

/** A class instance (a model, a date, a file) or a list of them: only server code can pass one. */
function serverObject(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every(serverObject)
  if (value === null || typeof value !== 'object') return false
  const proto = Object.getPrototypeOf(value)
  return proto !== Object.prototype && proto !== null
}
