/**
 * A bounded set of recently seen keys, oldest forgotten first: each rt
 * process remembers the broadcasts it delivered, so a second copy (a publish
 * that timed out, went through anyway, and was retried) is dropped.
 *
 * @example
 * ```ts
 * const seen = new RecentIds(20_000)
 * seen.firstTime('b1|news') // true
 * seen.firstTime('b1|news') // false
 * ```
 */
export class RecentIds {
  private readonly keys = new Set<string>()

  constructor(private readonly capacity: number) {}

  /** True the first time a key is seen (and remembers it). */
  firstTime(key: string): boolean {
    if (this.keys.has(key)) return false
    this.keys.add(key)
    if (this.keys.size > this.capacity) this.keys.delete(this.keys.values().next().value!)
    return true
  }
}
