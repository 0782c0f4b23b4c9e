import { FastResponse } from 'srvx'
import type { HttpContext } from '../pipeline/http-context.ts'
import { bodyOf, knownBody } from '../compression/known-body.ts'

/** Anything a handler can return that knows how to become a response (views, redirects). */
export interface Responsable {
  toResponse(ctx: HttpContext): Response | Promise<Response>
}

function isResponsable(value: unknown): value is Responsable {
  return typeof value === 'object' && value !== null && typeof (value as Responsable).toResponse === 'function'
}

/**
 * Turns a handler's return value into a `Response`: a `Response` as is,
 * `toResponse()` objects rendered, strings as HTML, `null` as 204, anything
 * else as JSON. Headers queued on `ctx.response` are merged in.
 *
 * @example
 * ```ts
 * await toResponse({ ok: true }, ctx) // 200 application/json
 * ```
 */
export async function toResponse(value: unknown, ctx: HttpContext): Promise<Response> {
  return toResponseNow(value, ctx) ?? withQueued(await (value as Responsable).toResponse(ctx), ctx)
}

/**
 * {@link toResponse} without a promise, for every value but a
 * `Responsable` (undefined then): the pipeline converts most handlers'
 * answers this way, since each promise of a request costs an
 * AsyncLocalStorage hook on Node 20. @internal
 *
 * @example
 * ```ts
 * const response = toResponseNow(value, ctx) ?? (await toResponse(value, ctx))
 * ```
 */
export function toResponseNow(value: unknown, ctx: HttpContext): Response | undefined {
  if (value instanceof Response) return withQueued(value, ctx)
  if (isResponsable(value)) return undefined
  // With nothing queued, the middleware's base headers go into the literal the response is made from (no Headers object).
  const base = ctx.baseHeaders !== undefined && !ctx.hasQueuedResponseState() ? ctx.baseHeaders : undefined
  let response: Response
  if (value === undefined || value === null) response = new FastResponse(null, { status: 204, headers: base && { ...base } })
  else if (typeof value === 'string') response = knownBody(new FastResponse(value, { headers: { ...base, 'content-type': 'text/html; charset=utf-8' } }), value)
  else if (value instanceof Uint8Array || value instanceof ArrayBuffer || value instanceof ReadableStream || value instanceof Blob) {
    response = new FastResponse(value as BodyInit, { headers: { ...base, 'content-type': 'application/octet-stream' } })
  } else response = base ? json(value, 200, base) : json(value)
  if (base === undefined) return withQueued(response, ctx)
  WITH_BASE.add(response)
  return response
}

/** Responses built with their context's base headers in them. */
const WITH_BASE = new WeakSet<Response>()

/**
 * True when the kernel built `response` from a handler's value with
 * `ctx.baseHeaders` already in it. @internal
 *
 * @example
 * ```ts
 * if (!hasBaseHeaders(response)) addSecurityHeaders(response)
 * ```
 */
export function hasBaseHeaders(response: Response): boolean {
  return WITH_BASE.has(response)
}

/** What `new Headers()` takes (the DOM's `HeadersInit`, named from Node's own `Headers`: no DOM lib needed). */
type HeaderValues = ConstructorParameters<typeof Headers>[0]

const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * A JSON response.
 *
 * @example
 * ```ts
 * return json({ message: 'Created.' }, 201)
 * ```
 */
export function json(data: unknown, status = 200, headers?: HeaderValues): Response {
  // Most answers pass no headers: one literal, no copy (every JSON route builds one per request).
  let h: Record<string, string>
  if (headers === undefined) h = { 'content-type': JSON_TYPE }
  else {
    h = headers instanceof Headers || Array.isArray(headers) ? Object.fromEntries(new Headers(headers)) : { ...(headers as Record<string, string>) }
    h['content-type'] = JSON_TYPE
  }
  const body = JSON.stringify(data)
  return knownBody(new FastResponse(body, { status, headers: h }), body)
}

/**
 * A redirect (302 by default). Relative paths are not prefixed here: use
 * `url()`/`route()` to build browser-facing addresses.
 *
 * @example
 * ```ts
 * return redirect(route('dashboard'))
 * ```
 */
export function redirect(location: string, status = 302): Response {
  return new FastResponse(null, { status, headers: { location } })
}

/**
 * An empty 204 response.
 *
 * @example
 * ```ts
 * return noContent()
 * ```
 */
export function noContent(): Response {
  return new FastResponse(null, { status: 204 })
}

/**
 * Merges the headers (and status) queued on the context into a response,
 * copying it when its headers are immutable (e.g. from `fetch`).
 *
 * @example
 * ```ts
 * return withQueued(response, ctx)
 * ```
 */
export function withQueued(response: Response, ctx: HttpContext): Response {
  if (!ctx.hasQueuedResponseState()) return response
  const queued = ctx.response.headers
  const cookies = ctx.cookies.setCookieHeaders()
  const status = ctx.response.status
  // A copy keeps the whole body when it is known, so the compressor can still size it.
  const known = bodyOf(response)
  const copy = (init: ResponseInit) => (known === undefined ? new FastResponse(response.body, init) : knownBody(new FastResponse(known, init), known))
  let out = response
  try {
    applyHeaders(out.headers, queued, cookies)
  } catch {
    out = copy(response)
    applyHeaders(out.headers, queued, cookies)
  }
  if (status !== undefined && status !== out.status) out = copy({ status, headers: out.headers })
  ctx.resetResponseState()
  return out
}

function applyHeaders(target: Headers, queued: Headers, cookies: string[]): void {
  for (const [name, value] of queued) {
    if (name === 'set-cookie') continue
    if (!target.has(name)) target.set(name, value)
  }
  for (const cookie of queued.getSetCookie()) target.append('set-cookie', cookie)
  for (const cookie of cookies) target.append('set-cookie', cookie)
}
