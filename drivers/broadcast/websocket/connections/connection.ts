import type { Peer } from 'crossws'
import { isFatal } from '../protocol/error-codes.ts'
import type { PresenceMember } from '../channels/hub.ts'
import { pusherCloseCode } from '../protocol/pusher-protocol.ts'
import type { WireProtocol } from '../protocol/wire-protocol.ts'
import type { AddressSlot } from './rt-limits.ts'

/**
 * Milliseconds since this module loaded, as a small integer: V8 keeps one
 * in the object itself, where a `Date.now()` (or any arithmetic on it) would
 * cost each connection a 16-byte number box per field. `Math.floor` is what
 * makes it a small integer rather than a double that happens to be whole.
 * (After about 24 days of a process the values outgrow that and get the box.)
 */
const EPOCH = Date.now()
const clock = () => Math.floor(Date.now() - EPOCH)

/** The send options of a broadcast frame, one object for every send: a Buffer that stays a text frame. */
const TEXT_FRAME = { compress: false, binary: false } as { compress: boolean }

/** A socket id's two halves (`high.low`), each a positive integer below 2^31. */
export interface SocketIdParts {
  high: number
  low: number
}

/**
 * The halves of a socket id as this server makes them, or undefined for any
 * other string (which then names none of its sockets, as before).
 *
 * @example
 * ```ts
 * splitSocketId('123.456') // { high: 123, low: 456 }
 * splitSocketId('0123.456') // undefined: no socket here has that id
 * ```
 */
export function splitSocketId(id: string): SocketIdParts | undefined {
  const match = SOCKET_ID.exec(id)
  if (!match) return undefined
  const [high, low] = [Number(match[1]), Number(match[2])]
  return high < 2 ** 31 && low < 2 ** 31 ? { high, low } : undefined
}

const SOCKET_ID = /^([1-9]\d{0,9})\.([1-9]\d{0,9})$/

/** A fixed-window budget: `count` uses since `start` (ms on {@link clock}). */
interface Window {
  start: number
  count: number
}

/** Counts one use in a fixed window of `perSeconds`; false when over `limit`. */
function take(window: Window, limit: number, perSeconds: number, now: number): boolean {
  if (now - window.start >= perSeconds * 1000) {
    window.start = now
    window.count = 0
  }
  return ++window.count <= limit
}

/**
 * One client socket: its id, protocol, channels (with its presence record)
 * and budgets. An rt process holds tens of thousands of these, so each
 * costs as little as it can: a single channel is kept as its name (a `Map`
 * is made for a second one or a presence record), the client-event budget
 * only once the socket sends a client event, and times are small integers.
 *
 * @example
 * ```ts
 * connection.send(connection.protocol.pong())
 * connection.fail(4009, 'Frames are limited to 10000 bytes.')
 * ```
 */
export class Connection {
  /** The sweep count (see `LocalSockets.sweep`) when this socket was last heard from. */
  lastSeen: number
  closed = false
  /** The client address this socket counts against, once admitted (see `RtLimits`); shared by that address's sockets. */
  slot?: AddressSlot
  /** The channels joined: a single one without a presence record is kept as its name (most sockets), others in a Map. */
  private joined?: string | Map<string, PresenceMember | null>
  /** The subscribe budget's window, inline: every socket subscribes. */
  private subscribeStart = 0
  private subscribes = 0
  private clientEvents?: Window

  /** The socket id's halves, `high.low`: small integers kept in the object, where the id as a string would cost 40 bytes a socket. */
  readonly idHigh: number
  readonly idLow: number

  constructor(
    id: SocketIdParts,
    readonly peer: Peer,
    readonly protocol: WireProtocol,
    now: number,
  ) {
    this.idHigh = id.high
    this.idLow = id.low
    this.lastSeen = now
  }

  /** The socket id, `\d+.\d+` as Pusher's, made when asked for (frames, auth checks, the store: not the delivery loop). */
  get socketId(): string {
    return `${this.idHigh}.${this.idLow}`
  }

  /** Whether this is the socket `id` names (a broadcast's `except`), without making its string. */
  is(id: SocketIdParts): boolean {
    return this.idLow === id.low && this.idHigh === id.high
  }

  send(text: string): void {
    if (!this.closed) this.peer.send(text)
  }

  /**
   * Sends a text frame already encoded as UTF-8: a broadcast to thousands of
   * sockets encodes once instead of once per socket.
   */
  sendEncoded(bytes: Buffer): void {
    // crossws marks Buffers binary; the options let the frame stay text.
    if (!this.closed) this.peer.send(bytes, TEXT_FRAME)
  }

  /** Sends an error frame; fatal codes (4000–4099) also close the socket with that code. */
  fail(code: number, message: string): void {
    this.send(this.protocol.error(code, message))
    if (isFatal(code)) {
      this.closed = true
      this.peer.close(this.protocol.name === 'pusher' ? pusherCloseCode(code) : code, message.slice(0, 120))
    }
  }

  /** Fixed-window limiter for subscribe frames. @returns false when over the limit. */
  takeSubscribe(limit: number, perSeconds: number, now = clock()): boolean {
    // The window opens at the first subscribe frame, as the client-event one does.
    if (this.subscribes === 0 || now - this.subscribeStart >= perSeconds * 1000) {
      this.subscribeStart = now
      this.subscribes = 0
    }
    return ++this.subscribes <= limit
  }

  /** Fixed-window limiter for client events. @returns false when over the limit. */
  takeClientEvent(limit: number, perSeconds: number, now = clock()): boolean {
    return take((this.clientEvents ??= { start: now, count: 0 }), limit, perSeconds, now)
  }

  /** How many channels this socket is on. */
  get channelCount(): number {
    return typeof this.joined === 'string' ? 1 : (this.joined?.size ?? 0)
  }

  isOn(channel: string): boolean {
    return typeof this.joined === 'string' ? this.joined === channel : (this.joined?.has(channel) ?? false)
  }

  /** This socket's presence record on `channel` (null on other channels, undefined when not on it). */
  memberOn(channel: string): PresenceMember | null | undefined {
    if (typeof this.joined !== 'string') return this.joined?.get(channel)
    return this.joined === channel ? null : undefined
  }

  /** Records a channel (joining one it is on replaces its presence record). */
  addChannel(channel: string, member: PresenceMember | null): void {
    if (member === null && (this.joined === undefined || this.joined === channel)) {
      this.joined = channel
      return
    }
    const map: Map<string, PresenceMember | null> = typeof this.joined === 'string' ? new Map([[this.joined, null]]) : (this.joined ?? new Map())
    this.joined = map.set(channel, member)
  }

  removeChannel(channel: string): void {
    if (typeof this.joined === 'string' ? this.joined === channel : this.joined?.delete(channel) && this.joined.size === 0) this.joined = undefined
  }

  /** Every channel this socket is on, oldest first, with its presence record. */
  *channels(): Generator<[string, PresenceMember | null]> {
    if (typeof this.joined === 'string') yield [this.joined, null]
    else if (this.joined) yield* this.joined
  }

  clearChannels(): void {
    this.joined = undefined
  }
}
