/**
 * A model's attributes as `toDict` gives them: without the `hidden` ones,
 * dates as ISO strings.
 *
 * @example
 * ```ts
 * attributesToDict({ id: 1, password: 'x', created_at: new Date(0) }, ['password'])
 * // { id: 1, created_at: '1970-01-01T00:00:00.000Z' }
 * ```
 */
export function attributesToDict(attributes: Record<string, unknown>, hidden: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key in attributes) {
    if (hidden.length > 0 && hidden.includes(key)) continue
    const value = attributes[key]
    out[key] = value instanceof Date ? isoString(value) : value
  }
  return out
}

// Recent dates' ISO strings by time. `toISOString` costs about half a µs, the most of serialising a model with
// timestamps, and the same times come back request after request (the signed-in user's `created_at`). Keyed by the
// time, not the Date: a Date can be changed in place. Bounded: emptied when full.
const recentIso = new Map<number, string>()
const RECENT_MAX = 4096

/**
 * `date.toISOString()`, remembered for recent times.
 *
 * @example
 * ```ts
 * isoString(new Date(0)) // '1970-01-01T00:00:00.000Z'
 * ```
 */
export function isoString(date: Date): string {
  const time = date.getTime()
  let iso = recentIso.get(time)
  if (iso === undefined) {
    // Invalid Date: toISOString throws, as it did before the memo.
    iso = date.toISOString()
    if (recentIso.size >= RECENT_MAX) recentIso.clear()
    recentIso.set(time, iso)
  }
  return iso
}
