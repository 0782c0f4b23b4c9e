import type { Peer } from 'crossws'
import { isFatal } from '../protocol/error-codes.ts'
import type { PresenceMember } from '../channels/hub.ts'
import { pusherCloseCode } from '../protocol/pusher-protocol.ts'
import type { WireProtocol } from '../protocol/wire-protocol.ts'

/**
 * One client socket: its id, protocol, channels (with its presence record)
 * and client-event budget.
 *
 * @example
 * ```ts
 * connection.send(connection.protocol.pong())
 * connection.fail(4009, 'Frames are limited to 10000 bytes.')
 * ```
 */
export class Connection {
  /** Channel → this socket's presence record (null on other channels). */
  readonly channels = new Map<string, PresenceMember | null>()
  lastSeen = Date.now()
  closed = false
  /** The client address this socket counts against, once admitted (see `RtLimits`). */
  address?: string
  private windowStart = 0
  private windowCount = 0

  constructor(
    readonly socketId: string,
    readonly peer: Peer,
    readonly protocol: WireProtocol,
  ) {}

  send(text: string): void {
    if (!this.closed) this.peer.send(text)
  }

  /**
   * Sends a text frame already encoded as UTF-8: a broadcast to thousands of
   * sockets encodes once instead of once per socket.
   */
  sendEncoded(bytes: Buffer): void {
    // crossws marks Buffers binary; the spread options let the frame stay text.
    if (!this.closed) this.peer.send(bytes, { compress: false, binary: false } as { compress: boolean })
  }

  /** Sends an error frame; fatal codes (4000–4099) also close the socket with that code. */
  fail(code: number, message: string): void {
    this.send(this.protocol.error(code, message))
    if (isFatal(code)) {
      this.closed = true
      this.peer.close(this.protocol.name === 'pusher' ? pusherCloseCode(code) : code, message.slice(0, 120))
    }
  }

  /** Fixed-window limiter for client events. @returns false when over the limit. */
  takeClientEvent(limit: number, perSeconds: number, now = Date.now()): boolean {
    if (now - this.windowStart >= perSeconds * 1000) {
      this.windowStart = now
      this.windowCount = 0
    }
    return ++this.windowCount <= limit
  }
}
