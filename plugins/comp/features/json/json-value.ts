import { KilnError } from '../../../../core/index.ts'

/**
 * A `@json()` action's value as JSON will carry it, or a clear error
 * naming the action and where in the value the problem is: JSON has no
 * bigints, functions, symbols, `NaN` or `Infinity`, cycles, or class
 * instances without `toJSON()` (a `Map` would arrive as `{}`). `undefined`
 * (an action that returns nothing) is `null`. A `toJSON()` (a model, a
 * date) is used as `JSON.stringify` would.
 *
 * @example
 * ```ts
 * jsonValue({ when: new Date(0) }, 'Search.find') // { when: '1970-01-01T00:00:00.000Z' }
 * ```
 */
export function jsonValue(value: unknown, action: string): unknown {
  return convert(value, action, '', new Set())
}

function convert(value: unknown, action: string, at: string, seen: Set<object>): unknown {
  if (value === undefined || value === null) return null
  if (typeof value === 'string' || typeof value === 'boolean') return value
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value
    throw refuse(action, at, String(value))
  }
  if (typeof value !== 'object') throw refuse(action, at, `a ${typeof value}`)
  if (seen.has(value)) throw refuse(action, at, 'a reference back to itself (a cycle)')
  const toJSON = (value as { toJSON?: unknown }).toJSON
  if (typeof toJSON === 'function') return convert(toJSON.call(value), action, at, seen)
  seen.add(value)
  try {
    if (Array.isArray(value)) return value.map((item, i) => convert(item, action, `${at}[${i}]`, seen))
    const proto = Object.getPrototypeOf(value)
    if (proto !== Object.prototype && proto !== null) throw refuse(action, at, `a ${(value as object).constructor?.name ?? 'class'} instance without toJSON()`)
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) {
      // JSON drops an undefined property, as JSON.stringify does.
      if (item === undefined) continue
      Object.defineProperty(out, key, { value: convert(item, action, `${at}.${key}`, seen), enumerable: true, writable: true, configurable: true })
    }
    return out
  } finally {
    seen.delete(value)
  }
}

function refuse(action: string, at: string, what: string): KilnError {
  return new KilnError(`The @json() action ${action} returned ${what}${at ? ` at ${at.replace(/^\./, '')}` : ''}, which JSON cannot carry.`, {
    hint: 'Return plain objects, arrays, strings, finite numbers, booleans or null (or values with a toJSON()).',
    code: 'E_COMP_JSON_VALUE',
  })
}
