import type { PresenceMember } from '../channels/hub.ts'

/** A client frame, decoded and checked, whatever the protocol. */
export type Inbound =
  | { kind: 'subscribe'; channel: string; auth?: string; channelData?: string }
  | { kind: 'unsubscribe'; channel: string }
  | { kind: 'ping' }
  | { kind: 'pong' }
  | { kind: 'client-event'; event: string; channel: string; data: unknown }
  | { kind: 'invalid'; code: number; message: string }

/**
 * One socket protocol: how client frames decode and server frames encode.
 * The native `svc:` protocol and Pusher protocol 7 both implement it, so the
 * server logic is written once.
 *
 * @example
 * ```ts
 * const frame = svcProtocol.parse('{"event":"ping","data":{}}') // { kind: 'ping' }
 * peer.send(svcProtocol.pong())
 * ```
 */
export interface WireProtocol {
  readonly name: 'svc' | 'pusher'
  parse(text: string): Inbound
  established(socketId: string, activityTimeout: number): string
  subscribed(channel: string, members?: PresenceMember[]): string
  subscriptionError(channel: string, code: number, message: string): string
  memberAdded(channel: string, member: PresenceMember): string
  memberRemoved(channel: string, userId: PresenceMember['user_id']): string
  pong(): string
  /** A server-initiated keepalive frame, when the protocol has one. */
  ping(): string | undefined
  error(code: number, message: string): string
  /** A broadcast or a forwarded client event. */
  message(event: string, channel: string, data: unknown, userId?: PresenceMember['user_id']): string
}

const channelPattern = /^[A-Za-z0-9_\-=@,.;]{1,200}$/

/** Pusher's channel name rule, which Kiln shares. @example `isChannelName('orders.1') // true` */
export function isChannelName(value: unknown): value is string {
  return typeof value === 'string' && channelPattern.test(value)
}

/** Reads a JSON object frame; anything else is a reason. @internal */
export function readObject(text: string): Record<string, unknown> | string {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return 'The frame is not valid JSON.'
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : 'The frame must be a JSON object.'
}
