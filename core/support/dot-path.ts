/** Keys that would reach an object's prototype when user data becomes keys. */
export const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

/**
 * Reads a dotted path (`session.cookie.name`) from a plain object.
 *
 * @example
 * ```ts
 * getPath({ a: { b: 1 } }, 'a.b') // 1
 * ```
 */
export function getPath(source: unknown, path: string): unknown {
  if (!path) return source
  if (!path.includes('.')) {
    // The common case (`config.get('cors')`, `request.input('email')`) without splitting.
    if (source === null || typeof source !== 'object' || FORBIDDEN_KEYS.has(path) || !Object.prototype.hasOwnProperty.call(source, path)) return undefined
    return (source as Record<string, unknown>)[path]
  }
  let current: unknown = source
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object' || FORBIDDEN_KEYS.has(part)) return undefined
    if (!Object.prototype.hasOwnProperty.call(current, part)) return undefined
    current = (current as Record<string, unknown>)[part]
  }
  return current
}

/**
 * Merges plain objects deeply; arrays and other values from `override` replace.
 *
 * @example
 * ```ts
 * deepMerge({ a: { b: 1, c: 2 } }, { a: { c: 3 } }) // { a: { b: 1, c: 3 } }
 * ```
 */
export function deepMerge<T>(base: T, override: unknown): T {
  if (!isPlainObject(base) || !isPlainObject(override)) return (override === undefined ? base : override) as T
  const out: Record<string, unknown> = { ...base }
  for (const [key, value] of Object.entries(override)) {
    if (FORBIDDEN_KEYS.has(key)) continue
    out[key] = key in out ? deepMerge(out[key], value) : value
  }
  return out as T
}

/**
 * True for `{}`-style objects (not arrays, class instances, or null).
 *
 * @example
 * ```ts
 * isPlainObject({}) // true
 * isPlainObject([]) // false
 * ```
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}
