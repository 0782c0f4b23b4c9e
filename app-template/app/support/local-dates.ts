/**
 * The locale a request prefers among those this Node.js can format, from
 * its `Accept-Language` header (highest `q` first); `en` when none fits.
 *
 * @example
 * ```ts
 * preferredLocale('de-CH,de;q=0.9,en;q=0.5') // 'de-CH'
 * ```
 */
export function preferredLocale(header: string | null | undefined): string {
  const wanted = String(header ?? '')
    .slice(0, 500)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';')
      const q = Number(
        params
          .find((p) => p.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? 1,
      )
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, index }
    })
    .filter(({ tag, q }) => q > 0 && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(tag))
    .sort((a, b) => b.q - a.q || a.index - b.index)
  for (const { tag } of wanted) {
    try {
      const [supported] = Intl.DateTimeFormat.supportedLocalesOf(tag)
      if (supported) return supported
    } catch {
      // A tag Intl rejects (well formed but not a real locale) is skipped.
    }
  }
  return 'en'
}

/**
 * Formats a date for people in a locale: medium date, short time, in UTC
 * and saying so (the server does not know the reader's time zone).
 * Null or an unreadable value gives null.
 *
 * @example
 * ```ts
 * localDate('2026-11-27T09:30:00Z', 'de') // '27.11.2026, 09:30 UTC'
 * ```
 */
export function localDate(value: unknown, locale: string): string | null {
  if (value === null || value === undefined || value === '') return null
  const date =
    value instanceof Date
      ? value
      : new Date(typeof value === 'number' ? value : String(value).replace(' ', 'T') + (/[zZ]|[+-]\d\d:?\d\d$/.test(String(value)) ? '' : 'Z'))
  if (Number.isNaN(date.getTime())) return null
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(date) + ' UTC'
}
