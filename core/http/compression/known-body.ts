/**
 * What the compressor knows about a response without reading it. A
 * `Response` cannot say whether its body is a finished string or a stream
 * still being written, so the places that build one from a whole body
 * (views, `json()`, strings, error pages) say so here; the compressor then
 * compresses it in one piece with a `Content-Length`. Any other body is
 * compressed as a stream, chunk by chunk, never held back.
 */
// Kept on the response itself under symbols: a WeakMap or WeakSet entry per response cost more than a µs of CPU
// per request (ephemeron tables the garbage collector walks), on every response (issue 25, P0).
const BODY = Symbol('kiln.knownBody')
const AS_IS = Symbol('kiln.uncompressed')

type Marked = Response & { [BODY]?: string | Uint8Array<ArrayBuffer>; [AS_IS]?: true }

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
  ;(response as Marked)[BODY] = body
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
  return (response as Marked)[BODY]
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
  ;(response as Marked)[AS_IS] = true
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
  return (response as Marked)[AS_IS] === true
}
