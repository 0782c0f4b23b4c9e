import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'

/** Where open pages hear about changes (an event stream); the dev server answers it before the app. */
export const DEV_EVENTS_PATH = '/__kiln/dev/events'

// The page's script. It knows the build it was rendered from; the stream says the current build on connecting (after a
// restart, too: EventSource reconnects by itself) and after each change. A page older than the current build reloads,
// except that after a change to components only, a page that was current re-renders its components from their state.
const CLIENT = `(() => {
  if (window.__kilnDev) return
  let build = window.__kilnDev = BUILD
  const source = new EventSource(PATH)
  source.addEventListener('build', (event) => {
    const next = JSON.parse(event.data)
    if (next.id === build) return
    const wires = next.refresh === 'components' && next.since === build && window.comp && window.comp.all ? window.comp.all() : []
    if (wires.length === 0) return location.reload()
    build = window.__kilnDev = next.id
    Promise.all(wires.map((wire) => wire.$refresh())).catch(() => location.reload())
  })
})()`

/**
 * The `<script>` that `kiln dev` puts in pages: it listens to the dev
 * server's event stream and reloads the page (or re-renders its
 * components) when a file changes. `build` is the build the page comes
 * from; `nonce` the Content-Security-Policy nonce of the response, if any.
 *
 * @example
 * ```ts
 * devClientScript('4121.3', undefined) // '<script>(() => { ... })()</script>'
 * ```
 */
export function devClientScript(build: string, nonce: string | undefined, basePath = ''): string {
  const code = CLIENT.replace('BUILD', JSON.stringify(build)).replace('PATH', JSON.stringify(basePath + DEV_EVENTS_PATH))
  return `<script data-kiln-dev${nonce ? ` nonce="${nonce.replace(/[^\w+/=-]/g, '')}"` : ''}>${code}</script>`
}

/**
 * Whether a response is a whole page a browser navigated to: the request is
 * a document navigation (`Sec-Fetch-Dest: document`, or no such header and
 * an `Accept` that asks for HTML) and the answer is HTML. Component updates,
 * `fetch()` calls and frames are left alone.
 *
 * @example
 * ```ts
 * if (isPageNavigation(request, response)) response = await withDevClient(response, build)
 * ```
 */
export function isPageNavigation(request: Request, response: Response): boolean {
  if (request.method !== 'GET' || !response.headers.get('content-type')?.startsWith('text/html')) return false
  const dest = request.headers.get('sec-fetch-dest')
  return dest ? dest === 'document' : (request.headers.get('accept') ?? '').includes('text/html')
}

const DECODE: Record<string, (body: Buffer) => Buffer> = { br: brotliDecompressSync, gzip: gunzipSync, deflate: inflateSync }

/**
 * The same page with the dev client before its `</body>` (or `</html>`);
 * a page with neither, or an encoding Kiln cannot read, is returned as it
 * was. A compressed page is sent uncompressed (development only).
 *
 * @example
 * ```ts
 * const page = await withDevClient(await app.fetch(request), '4121.3')
 * ```
 */
export async function withDevClient(response: Response, build: string, basePath = ''): Promise<Response> {
  const encoding = response.headers.get('content-encoding')
  if (encoding && !DECODE[encoding]) return response
  let body: Buffer = Buffer.from(await response.arrayBuffer())
  if (encoding) body = DECODE[encoding]!(body)
  let html = body.toString('utf8')
  const bodyEnd = html.lastIndexOf('</body>')
  const at = bodyEnd >= 0 ? bodyEnd : html.lastIndexOf('</html>')
  const headers = new Headers(response.headers)
  headers.delete('content-encoding')
  headers.delete('content-length')
  headers.delete('etag')
  if (at >= 0) {
    const nonce = /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1]
    html = html.slice(0, at) + devClientScript(build, nonce, basePath) + html.slice(at)
  }
  return new Response(html, { status: response.status, statusText: response.statusText, headers })
}
