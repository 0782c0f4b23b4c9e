import { distinctMembers, userKey, type ChannelStore } from './channel-store.ts'
import type { ChannelInfo, PresenceMember } from './hub.ts'

interface ChannelEntry {
  sockets: Map<string, PresenceMember | null>
  users: Map<string, number>
}

/**
 * The single-process channel store: plain maps.
 *
 * @example
 * ```ts
 * const store = new MemoryChannelStore()
 * await store.join('news', '1.2')
 * ```
 */
export class MemoryChannelStore implements ChannelStore {
  private readonly entries = new Map<string, ChannelEntry>()

  async join(channel: string, socketId: string, member?: PresenceMember): Promise<boolean> {
    let entry = this.entries.get(channel)
    if (!entry) this.entries.set(channel, (entry = { sockets: new Map(), users: new Map() }))
    if (entry.sockets.has(socketId)) return false
    entry.sockets.set(socketId, member ?? null)
    if (!member) return false
    const count = (entry.users.get(userKey(member)) ?? 0) + 1
    entry.users.set(userKey(member), count)
    return count === 1
  }

  async leave(channel: string, socketId: string, member?: PresenceMember): Promise<boolean> {
    const entry = this.entries.get(channel)
    if (!entry?.sockets.delete(socketId)) return false
    let last = false
    if (member) {
      const count = (entry.users.get(userKey(member)) ?? 1) - 1
      if (count > 0) entry.users.set(userKey(member), count)
      else entry.users.delete(userKey(member))
      last = count <= 0
    }
    if (entry.sockets.size === 0) this.entries.delete(channel)
    return last
  }

  async members(channel: string): Promise<PresenceMember[]> {
    const sockets = this.entries.get(channel)?.sockets
    return sockets ? distinctMembers([...sockets.values()].filter((m): m is PresenceMember => m !== null)) : []
  }

  async channels(prefix = ''): Promise<Map<string, ChannelInfo>> {
    const out = new Map<string, ChannelInfo>()
    for (const [name, entry] of this.entries) if (name.startsWith(prefix)) out.set(name, this.info(name, entry))
    return out
  }

  async channel(name: string): Promise<ChannelInfo> {
    return this.info(name, this.entries.get(name))
  }

  async close(): Promise<void> {
    this.entries.clear()
  }

  private info(name: string, entry: ChannelEntry | undefined): ChannelInfo {
    const subscriptionCount = entry?.sockets.size ?? 0
    const base = { occupied: subscriptionCount > 0, subscriptionCount }
    return name.startsWith('presence-') ? { ...base, userCount: entry?.users.size ?? 0 } : base
  }
}
