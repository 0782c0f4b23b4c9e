import { FastResponse } from 'srvx'
import { compressBytes, compressStream, isCompressibleType, pickEncoding, type CompressionOptions } from './encoding.ts'
import { bodyOf, isUncompressed } from './known-body.ts'

// No body to compress (204, 304), or a part of one (206) whose byte range must stay as is.
const NO_BODY = new Set([101, 204, 205, 206, 304])

/**
 * Compresses a dynamic response for the client of `request`, as the last
 * step before it leaves the app. A body known whole (views, `json()`,
 * strings, error pages) at or above the threshold is compressed in one
 * piece with its `Content-Length`; any other text body is compressed as a
 * stream with a flush after every chunk, so nothing is held back. Left as
 * they are: HEAD, no acceptable coding, bodies that are not text, event
 * streams, responses that already have a `Content-Encoding` or
 * `Cache-Control: no-transform`, and those marked {@link uncompressed}.
 * `source` is the response the app returned, when h3 handed on a copy.
 *
 * @example
 * ```ts
 * const response = await compressResponse(request, await h3.fetch(request), options, answered.get(request))
 * ```
 */
export function compressResponse(request: Request, response: Response, options: CompressionOptions, source?: Response): Response | Promise<Response> {
  if (!options.enabled || request.method === 'HEAD' || NO_BODY.has(response.status) || isUncompressed(response)) return response
  // A body known whole and under the threshold (most JSON answers) goes out as it is, before any header is read and
  // without a promise: on srvx's fast response, reading the headers builds a Headers object. A copy h3 made carries the app's body.
  const small = bodyOf(response) ?? (source && source !== response ? bodyOf(source) : undefined)
  if (small !== undefined && byteLength(small) < options.threshold) return response
  return compressSized(request, response, options, source)
}

async function compressSized(request: Request, response: Response, options: CompressionOptions, source?: Response): Promise<Response> {
  const headers = response.headers
  if (headers.has('content-encoding') || !isCompressibleType(headers.get('content-type'))) return response
  if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(headers.get('cache-control') ?? '')) return response
  // Reading `body` turns srvx's fast response into a full one, so it is read only where a copy hides the marks:
  // h3 copies the app's response (same body) to merge headers set on the event.
  const original = source && source !== response && source.body === response.body ? source : response
  if (isUncompressed(original)) return response
  const known = bodyOf(original)
  const length = known === undefined ? Number(headers.get('content-length') ?? Number.NaN) : byteLength(known)
  // Under the threshold the coding overhead is not worth the CPU; the answer is the same for every client, so no Vary.
  if (length < options.threshold) return response
  const encoding = pickEncoding(request.headers.get('accept-encoding'))
  if (!encoding) return withVary(response, known)
  if (known === undefined && (!response.body || response.bodyUsed)) return response
  const out = new Headers(headers)
  vary(out)
  out.set('content-encoding', encoding)
  // The same ETag would claim the compressed bytes equal the identity ones.
  const etag = out.get('etag')
  if (etag && !etag.startsWith('W/')) out.set('etag', `W/${etag}`)
  if (known !== undefined) {
    const compressed = await compressBytes(typeof known === 'string' ? Buffer.from(known) : known, encoding, options)
    out.set('content-length', String(compressed.byteLength))
    return new FastResponse(compressed, { status: response.status, statusText: response.statusText, headers: out })
  }
  out.delete('content-length')
  return new FastResponse(compressStream(response.body!, encoding, options), { status: response.status, statusText: response.statusText, headers: out })
}

function byteLength(body: string | Uint8Array): number {
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength
}

/** The response with `Vary: Accept-Encoding` (caches must not hand it to a client that accepts brotli). */
function withVary(response: Response, known: string | Uint8Array<ArrayBuffer> | undefined): Response {
  try {
    vary(response.headers)
    return response
  } catch {
    // Immutable headers (a response from fetch): copy, keeping the whole body when there is one.
    const headers = new Headers(response.headers)
    vary(headers)
    return new FastResponse(known ?? response.body, { status: response.status, statusText: response.statusText, headers })
  }
}

function vary(headers: Headers): void {
  const current = headers.get('vary') ?? ''
  if (/(?:^|,)\s*(?:\*|accept-encoding)\s*(?:,|$)/i.test(current)) return
  headers.set('vary', current ? `${current}, Accept-Encoding` : 'Accept-Encoding')
}
