import type { UpdateResponse } from '../lifecycle/update.ts'
import type { BootConfig } from './alpine.ts'
import { csrfToken } from './config.ts'
import { RequestFailed } from './request-failed.ts'
import { interceptOutgoing, type OutgoingRequest, type Phases } from './interceptors.ts'
import { reloadOutOfDate, showError, showExpired } from './overlay.ts'
import type { PageComponent } from './page-component.ts'

/** The body of an update request. */
export interface UpdateRequest {
  fingerprint: { id: string; name: string }
  serverMemo: Record<string, unknown>
  updates: Array<[string, unknown]>
  calls: Array<{ method: string; params: unknown[] }>
  island: string | null
  renderless?: boolean
}

// The answer's shape is the server's own type (erased from the bundle), so the two cannot drift apart.
export type { UpdateResponse }

// Its own module, so the stream reader can throw it without importing the transport back.
export { RequestFailed }

/** A feature's reader of answers of its own kind (stream: NDJSON). */
export interface AnswerReader {
  /** Headers that tell the server this reader is here, so it may answer in that kind. */
  headers?: Record<string, string>
  /** The answer's body, when the answer is of this reader's kind; undefined leaves it to the next reader (or JSON). */
  read(response: Response, config: BootConfig): Promise<unknown> | undefined
}

const readers: AnswerReader[] = []

/**
 * Registers a reader of update answers, for a feature whose answers are not
 * plain JSON (a streamed action's NDJSON). Answers no reader takes are read
 * as JSON.
 *
 * @example
 * ```ts
 * readAnswersWith({ headers: { 'x-comp-stream': '1' }, read: (response) => (isNdjson(response) ? readLines(response) : undefined) })
 * ```
 */
export function readAnswersWith(reader: AnswerReader): void {
  readers.push(reader)
}

let refreshing: Promise<void> | undefined

/** True for the server's answer to an out-of-date snapshot or address (code `E_COMP_EXPIRED`). */
function outOfDate(body: string): boolean {
  try {
    return (JSON.parse(body) as { code?: unknown }).code === 'E_COMP_EXPIRED'
  } catch {
    return false
  }
}

/**
 * Fetches a fresh CSRF token: any page of the app sets the `XSRF-TOKEN`
 * cookie, so the current one is asked for again (once at a time).
 */
async function refreshCsrf(config: BootConfig): Promise<void> {
  refreshing ??= fetch(location.href, { headers: { accept: 'text/html' }, credentials: 'same-origin' })
    .then(() => {
      const fresh = decodeURIComponent(/(?:^|;\s*)XSRF-TOKEN=([^;]+)/.exec(document.cookie)?.[1] ?? '')
      if (fresh) {
        config.csrf = fresh
        document.querySelector('meta[name="csrf-token"]')?.setAttribute('content', fresh)
      }
    })
    .finally(() => (refreshing = undefined))
  return refreshing
}

/**
 * Sends one request: an update, or several bundled (`{ components }`). The
 * request interceptors (`comp.interceptRequest`, `comp.hook('request')`)
 * see it first and may change its address, headers or payload, or cancel it
 * (an `AbortError`, as when `controller` aborts). The address rotates with
 * every answer (`effects.endpoint`, or `endpoint` for a bundle). A 419 (the
 * session's CSRF token changed, say after a login in another tab) fetches
 * a fresh token and retries once, with no dialog; only a second 419 tells
 * the user, once per page. Other failures show the debug overlay, or go to
 * the console in production, unless an interceptor's `onError` called
 * `preventDefault()`.
 */
export async function send<T = UpdateResponse>(
  config: BootConfig,
  payload: object,
  controller = new AbortController(),
  components: PageComponent[] = [],
): Promise<T> {
  const request: OutgoingRequest = {
    url: config.endpoint,
    options: {
      method: 'POST',
      credentials: 'same-origin',
      signal: controller.signal,
      headers: {
        'content-type': 'application/json',
        // HTML too: in debug mode a crash answers the debug page, which the error dialog shows (overlay.ts).
        accept: 'application/json, text/html;q=0.9',
        // What the features' answer readers accept (a streamed action's NDJSON).
        ...Object.assign({}, ...readers.map((reader) => reader.headers)),
        'x-requested-with': 'XMLHttpRequest',
      },
    },
    payload,
    components,
    cancel: () => controller.abort(),
  }
  const hooks = interceptOutgoing(request)
  try {
    if (controller.signal.aborted) throw new DOMException('The request was cancelled.', 'AbortError')
    hooks.fire('send')
    const body = await exchange(config, request, hooks)
    const endpoint = (body as { endpoint?: string }).endpoint ?? body.effects.endpoint
    config.endpoint = endpoint
    document.querySelector('meta[name="comp-endpoint"]')?.setAttribute('content', endpoint)
    return body as T
  } catch (error) {
    if ((error as Error).name === 'AbortError') hooks.fire('cancel')
    throw error
  } finally {
    hooks.fire('finish')
  }
}

/** The fetch itself, with the 419 retry; the answer's body, as JSON or as a feature's reader reads it. */
async function exchange(config: BootConfig, request: OutgoingRequest, hooks: Phases): Promise<UpdateResponse> {
  for (let attempt = 0; ; attempt++) {
    const token = csrfToken(config)
    if (token) request.options.headers['x-csrf-token'] = token
    let response: Response
    try {
      response = await fetch(request.url, { ...request.options, body: JSON.stringify(request.payload) })
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error
      hooks.fire('failure', { error })
      showError(config, 0, String(error))
      throw new RequestFailed(String(error))
    }
    hooks.fire('response', { response })
    if (response.ok) {
      const body = (await readBody(response, config)) as UpdateResponse
      hooks.fire('success', { response, json: body })
      return body
    }
    const text = await response.text()
    // A 419 without the out-of-date code: the CSRF token changed; a fresh one is tried once.
    if (response.status === 419 && !outOfDate(text) && attempt === 0) {
      await refreshCsrf(config)
      continue
    }
    let prevented = false
    hooks.fire('error', { response, body: text, preventDefault: () => (prevented = true) })
    // The snapshot or the address is from another session (a login or logout since) or too old: only a reload helps.
    if (prevented) throw new RequestFailed(`HTTP ${response.status}`, response.status, text)
    if (response.status === 419 && outOfDate(text)) reloadOutOfDate()
    else if (response.status === 419) showExpired()
    else showError(config, response.status, text)
    throw new RequestFailed(`HTTP ${response.status}`, response.status, text)
  }
}

/** The first registered reader that takes the answer reads it; else it is JSON. */
function readBody(response: Response, config: BootConfig): Promise<unknown> {
  for (const reader of readers) {
    const body = reader.read(response, config)
    if (body) return body
  }
  return response.json()
}
