import { RtError } from './error-codes.ts'
import type { PresenceMember } from '../channels/hub.ts'
import { isChannelName, readObject, type Inbound, type WireProtocol } from './wire-protocol.ts'

const invalid = (code: number, message: string): Inbound => ({ kind: 'invalid', code, message })

/** Pusher clients may send `data` as an object or as a JSON string. */
function dataObject(data: unknown): Record<string, unknown> | undefined {
  if (typeof data === 'string') {
    const parsed = readObject(data)
    return typeof parsed === 'string' ? undefined : parsed
  }
  return data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined
}

function parse(text: string): Inbound {
  const frame = readObject(text)
  if (typeof frame === 'string') return invalid(RtError.NotJsonObject, frame)
  const event = frame.event
  if (typeof event !== 'string' || event.length === 0 || event.length > 200) return invalid(RtError.InvalidField, 'The frame needs an "event" string.')
  if (event === 'pusher:ping') return { kind: 'ping' }
  if (event === 'pusher:pong') return { kind: 'pong' }
  if (event === 'pusher:subscribe' || event === 'pusher:unsubscribe') {
    const data = dataObject(frame.data)
    if (!data || !isChannelName(data.channel)) return invalid(RtError.InvalidField, `"${event}" needs "data.channel".`)
    if (event === 'pusher:unsubscribe') return { kind: 'unsubscribe', channel: data.channel }
    const { auth, channel_data: channelData } = data
    if ((auth !== undefined && typeof auth !== 'string') || (channelData !== undefined && typeof channelData !== 'string'))
      return invalid(RtError.InvalidField, '"auth" and "channel_data" must be strings.')
    return { kind: 'subscribe', channel: data.channel, auth, channelData }
  }
  if (event.startsWith('client-')) {
    if (!isChannelName(frame.channel)) return invalid(RtError.InvalidField, 'A client event needs a "channel".')
    return { kind: 'client-event', event, channel: frame.channel, data: frame.data ?? null }
  }
  return invalid(RtError.UnknownEvent, `Unknown event "${event.slice(0, 50)}".`)
}

/** Pusher's own codes where it has one; `null` for its "generic, keep going" errors. */
function pusherCode(code: number): number | null {
  if (code === RtError.OriginNotAllowed || code === RtError.FrameTooLarge) return 4009
  if (code === RtError.OverQuota || code === RtError.ClientEventRateLimited) return code
  return code < 4100 ? code : null
}

const stringData = (data: unknown) => (typeof data === 'string' ? data : JSON.stringify(data))

function presence(members: PresenceMember[]) {
  const hash: Record<string, unknown> = Object.create(null)
  for (const member of members) hash[String(member.user_id)] = member.user_info ?? null
  return { presence: { ids: members.map((member) => String(member.user_id)), hash, count: members.length } }
}

/**
 * Pusher protocol 7, served on `/app/{key}` so pusher-js and the rest of the
 * Pusher ecosystem work against a self-hosted Kiln: `pusher:` and
 * `pusher_internal:` events, `data` as a JSON string, Pusher's error codes.
 *
 * @example
 * ```ts
 * peer.send(pusherProtocol.established('12.34', 30))
 * ```
 */
export const pusherProtocol: WireProtocol = {
  name: 'pusher',
  parse,
  established: (socketId, activityTimeout) =>
    JSON.stringify({ event: 'pusher:connection_established', data: JSON.stringify({ socket_id: socketId, activity_timeout: activityTimeout }) }),
  subscribed: (channel, members) =>
    JSON.stringify({ event: 'pusher_internal:subscription_succeeded', channel, data: JSON.stringify(members ? presence(members) : {}) }),
  subscriptionError: (channel, code, message) =>
    JSON.stringify({
      event: 'pusher:subscription_error',
      channel,
      data: JSON.stringify({
        type: 'AuthError',
        error: message,
        status: code === RtError.SubscriptionRefused ? 401 : code === RtError.TryAgain ? 503 : code === RtError.SubscribeRateLimited ? 429 : 400,
      }),
    }),
  memberAdded: (channel, member) =>
    JSON.stringify({
      event: 'pusher_internal:member_added',
      channel,
      data: JSON.stringify({ user_id: String(member.user_id), user_info: member.user_info ?? null }),
    }),
  memberRemoved: (channel, userId) => JSON.stringify({ event: 'pusher_internal:member_removed', channel, data: JSON.stringify({ user_id: String(userId) }) }),
  pong: () => '{"event":"pusher:pong","data":"{}"}',
  ping: () => '{"event":"pusher:ping","data":"{}"}',
  error: (code, message) => JSON.stringify({ event: 'pusher:error', data: { code: pusherCode(code), message } }),
  message: (event, channel, data, userId) =>
    JSON.stringify(userId === undefined ? { event, channel, data: stringData(data) } : { event, channel, data: stringData(data), user_id: String(userId) }),
}

/** The close code a Pusher client sees for a fatal error. @internal */
export function pusherCloseCode(code: number): number {
  return pusherCode(code) ?? code
}
