import type { UpdateResponse } from '../lifecycle/update.ts'
import type { BootConfig } from './alpine.ts'
import { csrfToken } from './config.ts'
import { reloadOutOfDate, showError, showExpired } from './overlay.ts'

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

/** A request that failed in a way already shown to the user; the component stays usable. */
export class RequestFailed extends Error {}

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
 * Sends one update. The address rotates with every answer
 * (`effects.endpoint`). A 419 (the session's CSRF token changed, say after a
 * login in another tab) fetches a fresh token and retries once, with no
 * dialog; only a second 419 tells the user, once per page. Other failures
 * show the debug overlay, or go to the console in production.
 */
export async function send(config: BootConfig, request: UpdateRequest, signal?: AbortSignal): Promise<UpdateResponse> {
  for (let attempt = 0; ; attempt++) {
    let response: Response
    try {
      response = await fetch(config.endpoint, {
        method: 'POST',
        credentials: 'same-origin',
        signal,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'x-requested-with': 'XMLHttpRequest',
          ...(csrfToken(config) ? { 'x-csrf-token': csrfToken(config)! } : {}),
        },
        body: JSON.stringify(request),
      })
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error
      showError(config, 0, String(error))
      throw new RequestFailed(String(error))
    }
    if (response.status === 419) {
      // The snapshot or the address is from another session (a login or logout since) or too old: only a reload helps.
      const body = await response.text()
      if (outOfDate(body)) {
        reloadOutOfDate()
        throw new RequestFailed('The page is out of date.')
      }
    }
    if (response.status === 419 && attempt === 0) {
      await refreshCsrf(config)
      continue
    }
    if (response.status === 419) {
      showExpired()
      throw new RequestFailed('The page expired.')
    }
    if (!response.ok) {
      showError(config, response.status, await response.text())
      throw new RequestFailed(`HTTP ${response.status}`)
    }
    const body = (await response.json()) as UpdateResponse
    config.endpoint = body.effects.endpoint
    document.querySelector('meta[name="comp-endpoint"]')?.setAttribute('content', body.effects.endpoint)
    return body
  }
}
