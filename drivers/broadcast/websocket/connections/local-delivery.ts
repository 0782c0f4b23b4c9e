import type { Logger } from '../../../../core/index.ts'
import { splitSocketId } from './connection.ts'
import type { LocalSockets } from './local-sockets.ts'
import { RecentIds } from '../scaling/recent-ids.ts'
import type { RelayMessage } from '../scaling/redis-relay.ts'
import { encode } from '../protocol/rt-frames.ts'
import { isEncryptedChannel, isSealed } from '../protocol/sealed-payload.ts'
import type { WireProtocol } from '../protocol/wire-protocol.ts'

/** How many broadcast ids each process remembers to drop second copies. */
const SEEN_IDS = 20_000

/**
 * Hands a message to this process's sockets on a channel: encoded once per
 * protocol, never twice for the same broadcast id, never in clear on an
 * encrypted channel, and dropping a socket whose unsent buffer is full.
 *
 * @example
 * ```ts
 * const delivery = new LocalDelivery(sockets, config.max_buffered_bytes, logger)
 * delivery.deliver('news', { event: 'Published', data: { id: 1 }, socket: null, id: 'b1' })
 * ```
 */
export class LocalDelivery {
  /** `<broadcast id>|<channel>` of recent deliveries. */
  private readonly seen = new RecentIds(SEEN_IDS)
  private plaintextRefused = false

  constructor(
    private readonly sockets: LocalSockets,
    private readonly maxBufferedBytes: number,
    private readonly logger: Logger,
  ) {}

  deliver(channel: string, message: RelayMessage): void {
    if (message.id && !this.seen.firstTime(`${message.id}|${channel}`)) return
    if (isEncryptedChannel(channel) && !isSealed(message.data)) return this.refusePlaintext(channel)
    const subscribers = this.sockets.on(channel)
    if (!subscribers) return
    const encoded: Partial<Record<WireProtocol['name'], Buffer>> = {}
    const except = message.socket === null ? undefined : splitSocketId(message.socket)
    for (const connection of subscribers) {
      if (except && connection.is(except)) continue
      const { protocol } = connection
      connection.sendEncoded((encoded[protocol.name] ??= Buffer.from(encode(protocol, channel, message))))
      // A client that stopped reading would otherwise grow this process's memory without bound.
      if (connection.peer.bufferedAmount > this.maxBufferedBytes) {
        connection.closed = true
        connection.peer.terminate()
      }
    }
  }

  /** A relayed message in clear on an encrypted channel (an old or foreign publisher): dropped, and said once. */
  private refusePlaintext(channel: string): void {
    if (this.plaintextRefused) return
    this.plaintextRefused = true
    this.logger.warn({ channel }, 'rt: dropped an unencrypted message on a private-encrypted- channel (its publisher must seal it as {nonce, ciphertext})')
  }
}
