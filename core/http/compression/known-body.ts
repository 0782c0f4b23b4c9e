/**
 * What the compressor knows about a response without reading it. A
 * `Response` cannot say whether its body is a finished string or a stream
 * still being written, so the places that build one from a whole body
 * (views, `json()`, strings, error pages) say so here; the compressor then
 * compresses it in one piece with a `Content-Length`. Any other body is
 * compressed as a stream, chunk by chunk, never held back.
 */
const bodies = new WeakMap<Response, string | Uint8Array<ArrayBuffer>>()
const asIs = new WeakSet<Response>()

/**
 * Records that `response` was built from the whole of `body`, so it can be
 * compressed in one piece (and left alone under the size threshold).
 * Returns the response.
 *
 * @example
 * ```ts
 * const html = '<!doctype html><title>Report</title>…'
 * return knownBody(new Response(html, { headers: { 'content-type': 'text/html' } }), html)
 * ```
 */
export function knownBody<R extends Response>(response: R, body: string | Uint8Array<ArrayBuffer>): R {
  bodies.set(response, body)
  return response
}

/**
 * The whole body recorded by {@link knownBody}, if any.
 *
 * @example
 * ```ts
 * bodyOf(json({ ok: true })) // '{"ok":true}'
 * ```
 */
export function bodyOf(response: Response): string | Uint8Array<ArrayBuffer> | undefined {
  return bodies.get(response)
}

/**
 * Marks a response to be sent exactly as it is: never compressed (a stream
 * the client reads piece by piece, a body already encoded some other way).
 * Returns the response.
 *
 * @example
 * ```ts
 * return uncompressed(new Response(stream, { headers: { 'content-type': 'text/plain' } }))
 * ```
 */
export function uncompressed<R extends Response>(response: R): R {
  asIs.add(response)
  return response
}

/**
 * Whether {@link uncompressed} marked the response.
 *
 * @example
 * ```ts
 * isUncompressed(uncompressed(new Response('x'))) // true
 * ```
 */
export function isUncompressed(response: Response): boolean {
  return asIs.has(response)
}
