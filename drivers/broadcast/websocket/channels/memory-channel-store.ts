import { distinctMembers, userKey, type ChannelStore } from './channel-store.ts'
import type { ChannelInfo, PresenceMember } from './hub.ts'

interface PresenceEntry {
  sockets: Map<string, PresenceMember>
  users: Map<string, number>
}

/** What the memory store reads the other channels from: the process's own delivery index. */
export interface LocalChannels {
  on(channel: string): { readonly size: number } | undefined
  channelNames(): Iterable<string>
}

/**
 * The single-process channel store. Presence channels keep their rosters
 * here; every other channel's subscriptions are the sockets this process
 * delivers it to, so they are read from that index rather than recorded a
 * second time (a map entry per subscription).
 *
 * @example
 * ```ts
 * const store = new MemoryChannelStore(sockets)
 * await store.join('presence-chat', '1.2', { user_id: 7 })
 * ```
 */
export class MemoryChannelStore implements ChannelStore {
  private readonly presence = new Map<string, PresenceEntry>()

  constructor(private readonly local: LocalChannels) {}

  async join(channel: string, socketId: string, member?: PresenceMember): Promise<boolean> {
    if (!member) return false
    let entry = this.presence.get(channel)
    if (!entry) this.presence.set(channel, (entry = { sockets: new Map(), users: new Map() }))
    if (entry.sockets.has(socketId)) return false
    entry.sockets.set(socketId, member)
    const count = (entry.users.get(userKey(member)) ?? 0) + 1
    entry.users.set(userKey(member), count)
    return count === 1
  }

  async leave(channel: string, socketId: string, member?: PresenceMember): Promise<boolean> {
    if (!member) return false
    const entry = this.presence.get(channel)
    if (!entry?.sockets.delete(socketId)) return false
    const count = (entry.users.get(userKey(member)) ?? 1) - 1
    if (count > 0) entry.users.set(userKey(member), count)
    else entry.users.delete(userKey(member))
    if (entry.sockets.size === 0) this.presence.delete(channel)
    return count <= 0
  }

  async members(channel: string): Promise<PresenceMember[]> {
    const sockets = this.presence.get(channel)?.sockets
    return sockets ? distinctMembers(sockets.values()) : []
  }

  async channels(prefix = ''): Promise<Map<string, ChannelInfo>> {
    const out = new Map<string, ChannelInfo>()
    for (const name of this.local.channelNames()) if (name.startsWith(prefix) && !name.startsWith('presence-')) out.set(name, this.info(name))
    for (const name of this.presence.keys()) if (name.startsWith(prefix)) out.set(name, this.info(name))
    return out
  }

  async channel(name: string): Promise<ChannelInfo> {
    return this.info(name)
  }

  async close(): Promise<void> {
    this.presence.clear()
  }

  private info(name: string): ChannelInfo {
    if (!name.startsWith('presence-')) {
      const subscriptionCount = this.local.on(name)?.size ?? 0
      return { occupied: subscriptionCount > 0, subscriptionCount }
    }
    const entry = this.presence.get(name)
    const subscriptionCount = entry?.sockets.size ?? 0
    return { occupied: subscriptionCount > 0, subscriptionCount, userCount: entry?.users.size ?? 0 }
  }
}
