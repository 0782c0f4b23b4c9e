import { HttpException } from '../../../../core/index.ts'
import { metaOf } from '../../state/class-meta.ts'
import type { Component } from '../../component.ts'
import type { ComponentContext, ComponentHook } from '../../lifecycle/component-hook.ts'
import type { ComponentClass } from '../../registry/registry.ts'
import { dehydrate, publicProperties } from '../../state/state.ts'
import { coerce } from '../../state/updates.ts'
import { urlProperties, type UrlProperty } from './url.ts'

/** Each class's initial values (dehydrated), worked out once. */
const defaults = new WeakMap<ComponentClass, Record<string, unknown>>()
/** Set on a trip that restores properties from the URL (back, forward): the URL is already right, nothing is pushed. */
const RESTORING = Symbol('comp.query-string.restoring')

/**
 * Properties kept in the URL (`static queryString`, `@url()`): on the first
 * render they are read from the query string by their key, after `mount()`
 * (a value that does not fit the property is ignored, not an error). The
 * memo lists the keys (`url`) for the browser, and on a first render whose
 * URL does not show the state (`keep`, `except`, a value `mount()` set) the
 * values to write at once (`urlInit`). Each update answers the values by
 * key as the `queryString` effect, null where the key leaves the URL, and
 * `queryPush` when a `history` property changed. `$syncUrl(query)` (the
 * browser's back and forward) sets the properties from a query string, a
 * missing key restoring the `except` value or else the initial one.
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
    for (const { property, key } of urlProperties(c.Class)) {
      const value = listed(self[property], Object.prototype.hasOwnProperty.call(query, key) ? query[key] : undefined)
      if (value === undefined || !publicProperties(c.component).includes(property)) continue
      self[property] = await coerce(self[property], value, property, { app: c.services.app, ctx: c.run.ctx }, kinds.get(property) ?? 'undeclared').catch(
        () => self[property],
      )
    }
  },
  calls: {
    async $syncUrl(c, params) {
      const query = params[0]
      if (typeof query !== 'object' || query === null || Array.isArray(query)) throw new HttpException(422, '$syncUrl takes the query string as an object.')
      c.set(RESTORING, true)
      const initial = initialValues(c.Class)
      const self = c.component as unknown as Record<string, unknown>
      for (const { property, key, except } of urlProperties(c.Class)) {
        const raw = Object.prototype.hasOwnProperty.call(query, key) ? (query as Record<string, unknown>)[key] : undefined
        const value = raw !== undefined ? listed(self[property], raw) : except ? except.value : initial[property]
        // As on a first render, a value from the URL that does not fit the property is ignored.
        await c.update(property, structuredClone(value)).catch((error: unknown) => {
          if (!(error instanceof HttpException)) throw error
        })
      }
    },
  },
  dehydrate(c) {
    const properties = urlProperties(c.Class).filter(({ property }) => property in c.data)
    if (properties.length === 0) return
    c.memo.url = properties.map(({ key }) => key)
    const values = urlValues(c, properties)
    if (c.mounting) {
      // A lazy component has not read the URL yet: it loads with an update, which answers the effect.
      if (c.memo.lazy) return
      // What the URL should show but does not yet: the browser writes it at once.
      const query = c.run.ctx?.request.query() ?? {}
      const shown = (key: string) => (Object.prototype.hasOwnProperty.call(query, key) ? query[key] : null)
      const init = Object.fromEntries(Object.entries(values).filter(([key, value]) => !sameUrlValue(shown(key), value)))
      if (Object.keys(init).length > 0) c.memo.urlInit = init
      return
    }
    c.effects.queryString = values
    const before = c.request!.memo.data
    if (!c.get(RESTORING) && properties.some(({ property, history }) => history && JSON.stringify(before[property]) !== JSON.stringify(c.data[property])))
      c.effects.queryPush = true
  },
}

/** Each property's value in the URL by key: null where the key leaves it. */
function urlValues(c: ComponentContext, properties: readonly UrlProperty[]): Record<string, unknown> {
  const initial = initialValues(c.Class)
  const out: Record<string, unknown> = {}
  for (const { property, key, keep, except } of properties) {
    const value = c.data[property]
    const json = JSON.stringify(value)
    let drop: boolean
    if (except) drop = json === JSON.stringify(except.value)
    else drop = !keep && (json === JSON.stringify(initial[property]) || empty(value))
    out[key] = drop ? null : (value ?? '')
  }
  return out
}

/** A list property shown by one key takes the one value as a list (`?tags=a` is `['a']`). */
function listed(current: unknown, value: unknown): unknown {
  return Array.isArray(current) && typeof value === 'string' ? [value] : value
}

function empty(value: unknown): boolean {
  return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)
}

/** True when a query value (a string, a list, or absent as null) already shows a property's URL value. */
function sameUrlValue(shown: unknown, value: unknown): boolean {
  if (value === null) return shown === null
  if (Array.isArray(value))
    return JSON.stringify((Array.isArray(shown) ? shown : shown === null ? [] : [shown]).map(String)) === JSON.stringify(value.map(String))
  return shown === (typeof value === 'object' ? JSON.stringify(value) : String(value))
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
