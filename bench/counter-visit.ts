/**
 * What a browser holds after its first visit to the counter page of the
 * component benches (bench/comp-update.ts, bench/comp-phases.ts): its
 * cookies, and the body and headers of a `POST` that calls `increment`.
 */
export interface CounterVisit {
  /** The update address from the page's `comp-endpoint` meta tag. */
  endpoint: string
  body: string
  headers: Record<string, string>
}

/**
 * Reads the first visit's answer (the page and its `Set-Cookie` lines) into an update request.
 *
 * @example
 * ```ts
 * const page = await fetch(`${url}/`)
 * const { endpoint, body, headers } = await counterVisit(page)
 * await fetch(`${url}${endpoint}`, { method: 'POST', headers, body })
 * ```
 */
export async function counterVisit(page: Response): Promise<CounterVisit> {
  const html = await page.text()
  const cookie = page.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ')
  const xsrf = decodeURIComponent(/XSRF-TOKEN=([^;]+)/.exec(cookie)![1]!)
  const unescape = (text: string) => text.replace(/&quot;/g, '"').replace(/&amp;/g, '&')
  const snapshot = JSON.parse(unescape(/wire:snapshot="([^"]+)"/.exec(html)![1]!))
  const endpoint = unescape(/<meta name="comp-endpoint" content="([^"]+)">/.exec(html)![1]!)
  const body = JSON.stringify({ ...snapshot, updates: [], calls: [{ method: 'increment', params: [] }], island: null })
  return { endpoint, body, headers: { 'content-type': 'application/json', accept: 'application/json', cookie, 'x-csrf-token': xsrf } }
}
