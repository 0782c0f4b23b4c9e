/**
 * Whether a browser `Origin` may connect. Patterns are hosts with an optional
 * port (`app.example.com`, `localhost:3000`), `*.example.com` for subdomains,
 * or `*`. A missing Origin (a server-side client) is allowed: the header only
 * protects browsers from other sites.
 *
 * @example
 * ```ts
 * originAllowed('https://app.example.com', ['*.example.com']) // true
 * originAllowed('https://example.com.evil.io', ['*.example.com']) // false
 * ```
 */
export function originAllowed(origin: string | null, patterns: readonly string[]): boolean {
  if (patterns.includes('*') || !origin) return true
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  return patterns.some((raw) => {
    const pattern = raw.replace(/^[a-z]+:\/\//i, '').replace(/\/+$/, '').toLowerCase()
    const candidate = pattern.includes(':') ? url.host : url.hostname
    if (pattern.startsWith('*.')) return candidate.endsWith(pattern.slice(1)) && candidate.length > pattern.length - 1
    return candidate === pattern
  })
}
