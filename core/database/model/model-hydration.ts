import { castFromDb, type Cast } from './casts.ts'
import { defaultCast } from './model-attributes.ts'

/** What casting a row reads of a model class (not `Model`, to stay out of model.ts's import circle). */
export interface CastingClass {
  readonly casts: Record<string, Cast>
  readonly softDeletes: boolean
}

/**
 * A database row's values as the model exposes them (its `casts`, and dates
 * for the timestamp columns), in a new object.
 *
 * @example
 * ```ts
 * castRow(Post, { id: 1, meta: '{"tags":[]}' }) // { id: 1, meta: { tags: [] } }
 * ```
 */
export function castRow(Class: CastingClass, row: Record<string, unknown>): Record<string, unknown> {
  const attributes: Record<string, unknown> = {}
  const casts = Class.casts
  for (const key in row) {
    const value = row[key]
    const cast = casts[key] ?? defaultCast(Class, key)
    attributes[key] = cast === undefined || value === null || value === undefined ? value : castFromDb(cast, value)
  }
  return attributes
}

/**
 * A copy of cast attributes that shares nothing mutable with them: dates and
 * JSON values are copied, so a model made from it can change them (`meta.tags.push`,
 * `date.setHours`) without touching the source. Cheaper than casting the row
 * again: a date is copied from its time, not parsed from text.
 *
 * @example
 * ```ts
 * const copy = copyAttributes(user.$attributes)
 * ```
 */
export function copyAttributes(attributes: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key in attributes) out[key] = copyValue(attributes[key])
  return out
}

function copyValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (value instanceof Date) return new Date(value.getTime())
  if (Array.isArray(value)) return value.map(copyValue)
  const proto = Object.getPrototypeOf(value)
  if (proto === Object.prototype || proto === null) {
    const out: Record<string, unknown> = proto === null ? Object.create(null) : {}
    for (const key in value) {
      const item = copyValue((value as Record<string, unknown>)[key])
      // JSON.parse makes "__proto__" an own key; assigned, it would set the copy's prototype instead.
      if (key === '__proto__') Object.defineProperty(out, key, { value: item, writable: true, enumerable: true, configurable: true })
      else out[key] = item
    }
    return out
  }
  // What else a driver returns (a Buffer of a blob column): rare, and structuredClone copies it whole.
  return structuredClone(value)
}
