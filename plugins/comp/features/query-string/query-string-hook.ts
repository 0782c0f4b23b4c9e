import { collectStatic, metaOf } from '../../class-meta.ts'
import type { Component } from '../../component.ts'
import type { ComponentHook } from '../../lifecycle/component-hook.ts'
import type { ComponentClass } from '../../registry.ts'
import { dehydrate, publicProperties } from '../../state.ts'
import { coerce } from '../../updates.ts'

/** Each class's initial values of its `queryString` properties, worked out once. */
const defaults = new WeakMap<ComponentClass, Record<string, unknown>>()

/**
 * Properties kept in the URL (`static queryString`): on the first render
 * they are read from the query string, after `mount()` (a value that does
 * not fit the property is ignored, not an error); each update answers their
 * values as the `queryString` effect, null where a value is the initial one
 * (the browser then drops it from the URL).
 *
 * @example
 * ```ts
 * const features = [queryString, ...]
 * ```
 */
export const queryString: ComponentHook = {
  name: 'query-string',
  async mounted(c) {
    if (!c.mounting) return
    const query = c.run.ctx?.request.query() ?? {}
    const self = c.component as unknown as Record<string, unknown>
    const { kinds } = metaOf(c.Class)
    const tag = c.services.binding.tag(c.run.ctx)
    const openUpload = (reference: string) => c.services.uploads.open(reference, tag)
    for (const property of collectStatic<string[]>(c.Class, 'queryString')) {
      const value = query[property]
      if (value === undefined || !publicProperties(c.component).includes(property)) continue
      self[property] = await coerce(self[property], value, property, { openUpload }, kinds.get(property) ?? 'undeclared').catch(() => self[property])
    }
  },
  dehydrate(c) {
    if (c.mounting) return
    const properties = collectStatic<string[]>(c.Class, 'queryString')
    if (properties.length === 0) return
    const initial = initialValues(c.Class)
    const out: Record<string, unknown> = {}
    for (const property of properties) {
      if (!(property in c.data)) continue
      out[property] = JSON.stringify(c.data[property]) === JSON.stringify(initial[property]) ? null : c.data[property]
    }
    c.effects.queryString = out
  },
}

function initialValues(Class: ComponentClass): Record<string, unknown> {
  let values = defaults.get(Class)
  if (!values) {
    const fresh = new (Class as unknown as new () => Component)()
    values = dehydrate(fresh.state(), 'defaults').data
    defaults.set(Class, values)
  }
  return values
}
