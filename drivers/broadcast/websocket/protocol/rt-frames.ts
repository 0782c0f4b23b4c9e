import { FORBIDDEN_KEYS } from '../../../../core/index.ts'
import type { PresenceMember } from '../channels/hub.ts'
import type { RelayMessage } from '../scaling/redis-relay.ts'
import type { WireProtocol } from './wire-protocol.ts'

/** The frame names of presence changes; relayed like any event, encoded per protocol on delivery. */
export const MEMBER_ADDED = 'svc:member_added'
export const MEMBER_REMOVED = 'svc:member_removed'

/**
 * A relayed message as a frame of one protocol.
 *
 * @example
 * ```ts
 * encode(svcProtocol, 'news', { event: 'Published', data: { id: 1 }, socket: null })
 * ```
 */
export function encode(protocol: WireProtocol, channel: string, message: RelayMessage): string {
  if (message.event === MEMBER_ADDED) return protocol.memberAdded(channel, message.data as PresenceMember)
  if (message.event === MEMBER_REMOVED) return protocol.memberRemoved(channel, (message.data as PresenceMember).user_id)
  return protocol.message(message.event, channel, message.data, message.user_id)
}

/**
 * The presence record from signed `channel_data`: an object with a string or
 * number `user_id` (never a prototype name).
 *
 * @example
 * ```ts
 * readMember('{"user_id":1}') // { user_id: 1 }
 * ```
 */
export function readMember(channelData: string | undefined): PresenceMember | undefined {
  if (!channelData) return undefined
  let value: unknown
  try {
    value = JSON.parse(channelData)
  } catch {
    return undefined
  }
  if (value === null || typeof value !== 'object') return undefined
  const { user_id: userId, user_info: userInfo } = value as Record<string, unknown>
  if (!((typeof userId === 'string' && userId !== '' && !FORBIDDEN_KEYS.has(userId)) || typeof userId === 'number')) return undefined
  return userInfo === undefined ? { user_id: userId } : { user_id: userId, user_info: userInfo }
}
