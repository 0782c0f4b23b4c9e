import { RtError } from './error-codes.ts'
import { isChannelName, readObject, type Inbound, type WireProtocol } from './wire-protocol.ts'

const invalid = (code: number, message: string): Inbound => ({ kind: 'invalid', code, message })

function parse(text: string): Inbound {
  const frame = readObject(text)
  if (typeof frame === 'string') return invalid(RtError.NotJsonObject, frame)
  const event = frame.event
  if (typeof event !== 'string' || event.length === 0 || event.length > 200) return invalid(RtError.InvalidField, 'The frame needs an "event" string.')
  const data = frame.data ?? {}
  if (event === 'ping') return { kind: 'ping' }
  if (event === 'subscribe' || event === 'unsubscribe') {
    if (data === null || typeof data !== 'object' || Array.isArray(data)) return invalid(RtError.InvalidField, `"${event}" needs a "data" object.`)
    const { channel, auth, channel_data: channelData } = data as Record<string, unknown>
    if (!isChannelName(channel)) return invalid(RtError.InvalidField, `"${event}" needs "data.channel": up to 200 of A-Z a-z 0-9 _ - = @ , . ;`)
    if (event === 'unsubscribe') return { kind: 'unsubscribe', channel }
    if (auth !== undefined && typeof auth !== 'string') return invalid(RtError.InvalidField, '"data.auth" must be a string.')
    if (channelData !== undefined && typeof channelData !== 'string') return invalid(RtError.InvalidField, '"data.channel_data" must be a JSON string.')
    return { kind: 'subscribe', channel, auth, channelData }
  }
  if (event.startsWith('client-')) {
    if (!isChannelName(frame.channel)) return invalid(RtError.InvalidField, 'A client event needs a "channel".')
    return { kind: 'client-event', event, channel: frame.channel, data: frame.data ?? null }
  }
  return invalid(RtError.UnknownEvent, `Unknown event "${event.slice(0, 50)}".`)
}

/** Native clients get objects; Pusher HTTP API payloads are strings, parsed when they are JSON. */
function asObject(data: unknown): unknown {
  if (typeof data !== 'string') return data
  try {
    return JSON.parse(data)
  } catch {
    return data
  }
}

/**
 * Kiln's native socket protocol, served on `/broadcasting/socket`: frames
 * `{event, channel?, data}` with `data` an object and `svc:` server events.
 *
 * @example
 * ```ts
 * peer.send(svcProtocol.established('12.34', 30))
 * ```
 */
export const svcProtocol: WireProtocol = {
  name: 'svc',
  parse,
  established: (socketId, activityTimeout) =>
    JSON.stringify({ event: 'svc:connection_established', data: { socket_id: socketId, activity_timeout: activityTimeout } }),
  subscribed: (channel, members) => JSON.stringify({ event: 'svc:subscription_succeeded', channel, data: members ? { members } : {} }),
  subscriptionError: (channel, code, message) => JSON.stringify({ event: 'svc:error', channel, data: { code, message } }),
  memberAdded: (channel, member) => JSON.stringify({ event: 'svc:member_added', channel, data: member }),
  memberRemoved: (channel, userId) => JSON.stringify({ event: 'svc:member_removed', channel, data: { user_id: userId } }),
  pong: () => '{"event":"svc:pong","data":{}}',
  ping: () => undefined,
  error: (code, message) => JSON.stringify({ event: 'svc:error', data: { code, message } }),
  message: (event, channel, data, userId) =>
    JSON.stringify(userId === undefined ? { event, channel, data: asObject(data) } : { event, channel, data: asObject(data), user_id: userId }),
}
