/**
 * True when `value` nests objects and lists deeper than `max` levels. It
 * walks with its own stack, never by recursion, so a body nested ten
 * thousand levels deep is measured without overflowing the call stack; it
 * stops at the first level past `max`.
 *
 * @example
 * ```ts
 * nestedDeeperThan({ a: [{ b: 1 }] }, 2) // true: the object, the list, the inner object
 * nestedDeeperThan({ a: 1 }, 2)          // false
 * ```
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]]
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!
    if (current === null || typeof current !== 'object') continue
    if (depth + 1 > max) return true
    for (const item of Array.isArray(current) ? current : Object.values(current)) if (item !== null && typeof item === 'object') stack.push([item, depth + 1])
  }
  return false
}
