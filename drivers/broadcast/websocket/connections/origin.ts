import { requestHeader } from './request-header.ts'

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
    const pattern = raw
      .replace(/^[a-z]+:\/\//i, '')
      .replace(/\/+$/, '')
      .toLowerCase()
    const candidate = pattern.includes(':') ? url.host : url.hostname
    if (pattern.startsWith('*.')) return candidate.endsWith(pattern.slice(1)) && candidate.length > pattern.length - 1
    return candidate === pattern
  })
}

/**
 * Whether the page behind a socket may connect: no `Origin` (not a
 * browser), the page's own site (its origin's host is the request's
 * `Host`, which a page of another site cannot choose), or an origin
 * `patterns` allows (see `originAllowed`).
 *
 * @example
 * ```ts
 * originAccepted(peer.request, ['*.example.com']) // its Origin's host is its Host, or matches, or it has none
 * originAccepted(new Request('http://shop.test/', { headers: { origin: 'https://evil.test' } }), ['app.example.com']) // false
 * ```
 */
export function originAccepted(request: Request, patterns: readonly string[]): boolean {
  const origin = requestHeader(request, 'origin')
  if (!origin) return true
  let host: string
  try {
    host = new URL(origin).host.toLowerCase()
  } catch {
    return false
  }
  return host === requestHeader(request, 'host')?.toLowerCase() || originAllowed(origin, patterns)
}
