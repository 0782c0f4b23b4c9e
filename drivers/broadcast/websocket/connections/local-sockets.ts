import { randomInt } from 'node:crypto'
import type { Peer } from 'crossws'
import type { Connection, SocketIdParts } from './connection.ts'
import type { PresenceMember } from '../channels/hub.ts'
import type { LocalSubscription } from '../channels/redis-channel-store.ts'
import { RtError } from '../protocol/error-codes.ts'

/** Where a peer's connection is kept: on crossws's per-peer context object, which every peer has anyway (a WeakMap entry would cost more). */
const CONNECTION = Symbol('kiln.rt.connection')

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
  /** By the low half of their socket ids, unique here (a number key: the id's string is made only when asked for). */
  readonly byId = new Map<number, Connection>()
  private readonly byChannel = new Map<string, Set<Connection>>()
  /** Sweeps so far: a connection's `lastSeen` is this count when it was last heard from. */
  private sweeps = 0

  get size(): number {
    return this.byId.size
  }

  /** The clock of `Connection.lastSeen`: a small integer that counts sweeps. */
  get now(): number {
    return this.sweeps
  }

  /** A socket id (`\d+\.\d+`, as Pusher's, both halves random) whose low half no connection here has. */
  newSocketId(): SocketIdParts {
    let low: number
    do low = randomInt(1, 2 ** 31)
    while (this.byId.has(low))
    return { high: randomInt(1, 2 ** 31), low }
  }

  /** Ties a connection to its peer (before it is admitted: a refused one still gets its frames). */
  attach(peer: Peer, connection: Connection): void {
    ;(peer.context as Record<symbol, Connection | undefined>)[CONNECTION] = connection
  }

  /** The connection of a peer, while it is attached. */
  of(peer: Peer): Connection | undefined {
    return (peer.context as Record<symbol, Connection | undefined>)[CONNECTION]
  }

  detach(peer: Peer): void {
    ;(peer.context as Record<symbol, Connection | undefined>)[CONNECTION] = undefined
  }

  add(connection: Connection): void {
    this.byId.set(connection.idLow, connection)
  }

  /** Forgets a closed socket; its channels are left to the caller (they need Redis). */
  remove(connection: Connection): void {
    if (this.byId.get(connection.idLow) === connection) this.byId.delete(connection.idLow)
  }

  join(channel: string, connection: Connection, member: PresenceMember | null): void {
    connection.addChannel(channel, member)
    let set = this.byChannel.get(channel)
    if (!set) this.byChannel.set(channel, (set = new Set()))
    set.add(connection)
  }

  leave(channel: string, connection: Connection): void {
    connection.removeChannel(channel)
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

  /** The channels with a subscriber in this process. */
  channelNames(): IterableIterator<string> {
    return this.byChannel.keys()
  }

  /** Every subscription held here, as the channel store records them. */
  subscriptions(): LocalSubscription[] {
    const out: LocalSubscription[] = []
    for (const connection of this.byId.values()) {
      for (const [channel, member] of connection.channels()) out.push({ channel, socketId: connection.socketId, ...(member ? { member } : {}) })
    }
    return out
  }

  /**
   * One keepalive sweep, run every `interval` ms: pings sockets silent for
   * over `timeoutMs` and drops those silent for over twice as long. A
   * connection's silence is counted in sweeps, so it is known to within one
   * interval: a socket heard from just after sweep k has been silent longer
   * than (sweeps since k − 1) intervals.
   */
  sweep(timeoutMs: number, interval: number): void {
    const now = ++this.sweeps
    const pingAfter = Math.ceil(timeoutMs / interval) + 1
    const dropAfter = Math.ceil((2 * timeoutMs) / interval) + 1
    for (const connection of this.byId.values()) {
      const idle = now - connection.lastSeen
      if (idle >= dropAfter) {
        connection.closed = true
        connection.peer.close(RtError.Inactive, 'No activity')
        connection.peer.terminate()
      } else if (idle >= pingAfter) {
        const ping = connection.protocol.ping()
        if (ping) connection.send(ping)
        connection.peer.ping()
      }
    }
  }
}
