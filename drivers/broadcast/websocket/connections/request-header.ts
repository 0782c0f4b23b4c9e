import type { IncomingHttpHeaders } from 'node:http'

/**
 * One header of a socket's upgrade request (`name` in lower case). crossws's
 * Node adapter builds the request's WHATWG `Headers` on first read and keeps
 * it for the socket's life, about 0.4 KB per socket; Node's own header
 * object stands behind it (held anyway), so it is read there when it is.
 * Other requests are read through `headers`.
 *
 * @example
 * ```ts
 * requestHeader(peer.request, 'origin') // 'https://shop.example.com', or null
 * ```
 */
export function requestHeader(request: Request, name: string): string | null {
  const node = (request as { _init?: { headers?: unknown } })._init?.headers
  if (node === null || typeof node !== 'object' || node instanceof Headers || Array.isArray(node)) return request.headers.get(name)
  const value = (node as IncomingHttpHeaders)[name]
  if (value === undefined) return null
  // Node joins repeated headers with ", " as Headers does (set-cookie aside, which is a list).
  return Array.isArray(value) ? value.join(', ') : value
}
