import type { HttpContext } from '../../core/index.ts'

/** A broadcast as drivers receive it: channel names, the event name, a JSON payload. */
export interface BroadcastMessage {
  channels: string[]
  event: string
  payload: Record<string, unknown>
  /** The socket to leave out (`toOthers()`), from `X-Socket-ID`. */
  socket?: string
  /**
   * Made once when the event is dispatched and kept by a queued job's
   * retries, so a receiver that sees the same broadcast twice (a publish
   * that timed out, then was delivered anyway) drops the copy.
   */
  id?: string
}

/**
 * The broadcaster contract every driver implements. `broadcast` delivers;
 * `auth` answers `POST /broadcasting/auth` for this connection (the
 * `SigningBroadcaster` base does it with the connection's key and secret).
 *
 * @example
 * ```ts
 * class AuditBroadcaster extends SigningBroadcaster {
 *   async broadcast({ channels, event, payload }: BroadcastMessage) {
 *     await audit.write({ channels, event, payload })
 *   }
 * }
 * ```
 */
export interface Broadcaster {
  broadcast(message: BroadcastMessage): Promise<void>
  /** Signs a channel subscription (private/presence/encrypted) for a socket. */
  signChannel(socketId: string, channel: string, channelData?: string): { auth: string; shared_secret?: string }
  /** Signs a user authentication (`/broadcasting/user-auth`). */
  signUser(socketId: string, userData: string): { auth: string }
  /**
   * Why this connection cannot deliver in this app (a socket server that is
   * not the one mounted, say), or undefined when it can. Asked at dispatch,
   * so a broadcast is never dropped without a word.
   */
  undeliverable?(): string | undefined
  /** The client the driver wraps (ioredis, pusher), when it has one. */
  getInstance?(): unknown
  close?(): Promise<void>
}

/** What a broadcaster's resolver receives besides the app. */
export interface BroadcasterConfig {
  driver: string
  key?: string
  secret?: string
  /** base64 of 32 bytes, for `private-encrypted-` channels. */
  encryption_master_key?: string
  client_events?: boolean
  [option: string]: unknown
}

export type { HttpContext }
