import { randomInt } from 'node:crypto'
import type { Peer } from 'crossws'
import type { Connection } from './connection.ts'
import type { PresenceMember } from '../channels/hub.ts'
import type { LocalSubscription } from '../channels/redis-channel-store.ts'
import { RtError } from '../protocol/error-codes.ts'

/**
 * The sockets one rt process holds: by id, by crossws peer, and by channel
 * (for delivery), plus the keepalive sweep over them.
 *
 * @example
 * ```ts
 * const sockets = new LocalSockets()
 * sockets.add(connection)
 * sockets.join('news', connection, null)
 * for (const c of sockets.on('news') ?? []) c.send(frame)
 * ```
 */
export class LocalSockets {
  readonly byId = new Map<string, Connection>()
  readonly byPeer = new WeakMap<Peer, Connection>()
  private readonly byChannel = new Map<string, Set<Connection>>()

  get size(): number {
    return this.byId.size
  }

  /** A socket id (`\d+\.\d+`, as Pusher's) no connection here has. */
  newSocketId(): string {
    let id: string
    do id = `${randomInt(1, 2 ** 31)}.${randomInt(1, 2 ** 31)}`
    while (this.byId.has(id))
    return id
  }

  add(connection: Connection): void {
    this.byId.set(connection.socketId, connection)
  }

  /** Forgets a closed socket; its channels are left to the caller (they need Redis). */
  remove(connection: Connection): void {
    if (this.byId.get(connection.socketId) === connection) this.byId.delete(connection.socketId)
  }

  join(channel: string, connection: Connection, member: PresenceMember | null): void {
    connection.channels.set(channel, member)
    let set = this.byChannel.get(channel)
    if (!set) this.byChannel.set(channel, (set = new Set()))
    set.add(connection)
  }

  leave(channel: string, connection: Connection): void {
    connection.channels.delete(channel)
    this.unindex(channel, connection)
  }

  /** Stops delivering a channel to a socket that is closing (its channel list is still needed to record the departures). */
  unindex(channel: string, connection: Connection): void {
    const set = this.byChannel.get(channel)
    if (!set) return
    set.delete(connection)
    if (set.size === 0) this.byChannel.delete(channel)
  }

  /** The sockets subscribed to a channel in this process. */
  on(channel: string): Set<Connection> | undefined {
    return this.byChannel.get(channel)
  }

  /** Every subscription held here, as the channel store records them. */
  subscriptions(): LocalSubscription[] {
    const out: LocalSubscription[] = []
    for (const connection of this.byId.values()) {
      for (const [channel, member] of connection.channels) out.push({ channel, socketId: connection.socketId, ...(member ? { member } : {}) })
    }
    return out
  }

  /** Pings sockets idle past the timeout and drops those silent for twice as long. */
  sweep(timeoutMs: number, now = Date.now()): void {
    for (const connection of this.byId.values()) {
      const idle = now - connection.lastSeen
      if (idle > timeoutMs * 2) {
        connection.closed = true
        connection.peer.close(RtError.Inactive, 'No activity')
        connection.peer.terminate()
      } else if (idle > timeoutMs) {
        const ping = connection.protocol.ping()
        if (ping) connection.send(ping)
        connection.peer.ping()
      }
    }
  }
}
