/**
 * What a session held when it was loaded (or last saved): each key's value,
 * serialised, and the expiry then stored. A save compares the data against
 * it and writes only the keys this request changed, so parallel requests on
 * one session keep each other's keys.
 *
 * @example
 * ```ts
 * const loaded = new LoadedValues()
 * loaded.mark(record.data, record.expires_at)
 * loaded.changedKeys(session.data) // ['cart']
 * ```
 */
export class LoadedValues {
  private values = new Map<string, string>()
  /** When the session expired as loaded or last saved (Unix milliseconds); 0 before either. */
  expiresAt = 0

  /** Records `data` as what the store now holds, expiring at `expiresAt`. @example `loaded.mark(data, expiresAt)` */
  mark(data: Record<string, unknown>, expiresAt: number): void {
    this.values = new Map(Object.entries(data).map(([key, value]) => [key, JSON.stringify(value)]))
    this.expiresAt = expiresAt
  }

  /** The keys whose value in `data` differs from the marked one (set, changed or removed). @example `loaded.changedKeys(data)` */
  changedKeys(data: Record<string, unknown>): string[] {
    const keys = new Set([...this.values.keys(), ...Object.keys(data)])
    return [...keys].filter((key) => {
      const now = Object.prototype.hasOwnProperty.call(data, key) ? JSON.stringify(data[key]) : undefined
      return now !== this.values.get(key)
    })
  }
}
