/** Connection states, as `onStateChange` reports them. */
export type RtState = 'initialized' | 'connecting' | 'connected' | 'unavailable' | 'disconnected'

/** A presence member: what the app's channel callback returned for the user. */
export interface Member {
  user_id: string | number
  user_info?: unknown
}

/** The subset of the WebSocket API the client uses (browser or the `ws` package). */
export interface SocketLike {
  readyState: number
  send(data: string): void
  close(code?: number, reason?: string): void
  onopen: ((event: unknown) => void) | null
  onmessage: ((event: { data: unknown }) => void) | null
  onclose: ((event: { code: number; reason?: string }) => void) | null
  onerror: ((event: unknown) => void) | null
}

export type SocketConstructor = new (url: string) => SocketLike

/**
 * Options of `new Rt(options)`.
 *
 * @example
 * ```ts
 * new Rt({ authEndpoint: '/broadcasting/auth', reconnect: { initialDelayMs: 500, maxDelayMs: 10_000 } })
 * ```
 */
export interface RtOptions {
  /** Default: the page's host, path `<basePath>/broadcasting/socket`, `wss:` on https pages or with `forceTLS`. */
  wsUrl?: string
  /** Default `<basePath>/broadcasting/auth`. */
  authEndpoint?: string
  /** The app's APP_BASE_PATH; default: `<meta name="app-base-path">`, else none. */
  basePath?: string
  forceTLS?: boolean
  /** Default true: exponential backoff with jitter. */
  reconnect?: boolean | { initialDelayMs?: number; maxDelayMs?: number }
  /** A WebSocket constructor, for Node (`import WebSocket from 'ws'`). */
  WebSocket?: SocketConstructor
  fetch?: typeof fetch
  /** Extra headers for the authorisation request (for example a Bearer token). */
  headers?: Record<string, string>
  onStateChange?: (state: RtState, previous: RtState) => void
}

/** A server frame. */
export interface Frame {
  event: string
  channel?: string
  data?: any
  user_id?: string | number
}
