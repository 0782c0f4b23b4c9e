import type { ChannelInfo, PresenceMember } from './hub.ts'

/**
 * Who is subscribed where. The memory store serves one process; the Redis
 * store makes subscription counts and presence rosters cluster-wide.
 *
 * @example
 * ```ts
 * const first = await store.join('presence-chat', '1.2', { user_id: 7 })
 * if (first) announceMemberAdded()
 * ```
 */
export interface ChannelStore {
  /** Records a subscription. For presence: true when it is the user's first connection. */
  join(channel: string, socketId: string, member?: PresenceMember): Promise<boolean>
  /** Forgets a subscription. For presence: true when it was the user's last connection. */
  leave(channel: string, socketId: string, member?: PresenceMember): Promise<boolean>
  /** Distinct members (by `user_id`) of a presence channel. */
  members(channel: string): Promise<PresenceMember[]>
  channels(prefix?: string): Promise<Map<string, ChannelInfo>>
  channel(name: string): Promise<ChannelInfo>
  close(): Promise<void>
}

/** Pusher treats `1` and `"1"` as the same user. @internal */
export const userKey = (member: PresenceMember) => String(member.user_id)

/** Keeps the first record of each user. @internal */
export function distinctMembers(records: Iterable<PresenceMember>): PresenceMember[] {
  const seen = new Map<string, PresenceMember>()
  for (const record of records) if (!seen.has(userKey(record))) seen.set(userKey(record), record)
  return [...seen.values()]
}
