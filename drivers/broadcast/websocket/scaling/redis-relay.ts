import type { Redis } from 'ioredis'
import type { RedisClient } from '../../../../core/index.ts'
import { unavailable } from './redis-unavailable.ts'

/** What travels on `<prefix><channel>`: the same shape the `kv` driver publishes. */
export interface RelayMessage {
  event: string
  data: unknown
  socket: string | null
  /** The sender of a client event on a presence channel. */
  user_id?: string | number
  /** The broadcast's id: a process that hears it twice on one channel delivers it once. */
  id?: string
}

/**
 * Broadcast relay over Redis pub/sub: every rt process publishes to
 * `<prefix><channel>` and delivers what it hears on `<prefix>*` to its own
 * sockets, so a broadcast from any process (or from the `kv` driver) reaches
 * every socket once.
 *
 * @example
 * ```ts
 * const relay = new RedisRelay(publisher, subscriber, 'kiln:', (channel, message) => deliver(channel, message))
 * await relay.start()
 * await relay.publish(['news'], { event: 'Published', data: {}, socket: null })
 * ```
 */
export class RedisRelay {
  // ioredis clients inside; the constructor names the structural type, as ioredis is an optional peer.
  private readonly publisher: Redis
  private readonly subscriber: Redis

  constructor(
    publisher: RedisClient,
    subscriber: RedisClient,
    private readonly prefix: string,
    private readonly deliver: (channel: string, message: RelayMessage) => void,
    private readonly onBadMessage: (channel: string) => void = () => {},
    /** A publish failed (an outage, a stall): for the outage log. */
    private readonly onFailure: (error: unknown) => void = () => {},
  ) {
    this.publisher = publisher as Redis
    this.subscriber = subscriber as Redis
  }

  private wired = false
  private subscribed = false

  /**
   * True while this process hears the relay: its subscriber is connected and
   * subscribed. A socket subscribed meanwhile would miss what is published
   * until then, so the server refuses subscriptions (4310) while it is false.
   */
  get listening(): boolean {
    return this.subscribed
  }

  /** Subscribes to `<prefix>*`, now and after every reconnect of the subscriber (Redis may also be down at first). */
  async start(): Promise<void> {
    if (!this.wired) {
      this.wired = true
      this.subscriber.on('ready', () => void this.subscribe().catch(() => {}))
      this.subscriber.on('close', () => (this.subscribed = false))
      this.listen()
    }
    await this.subscribe()
  }

  // ioredis resubscribes by itself after a reconnect, but says nothing when that is done: subscribing again (harmless) tells.
  private async subscribe(): Promise<void> {
    await this.subscriber.psubscribe(`${escapeGlob(this.prefix)}*`)
    this.subscribed = true
  }

  private listen(): void {
    this.subscriber.on('pmessage', (_pattern: string, channel: string, text: string) => {
      let message: RelayMessage
      try {
        message = JSON.parse(text) as RelayMessage
      } catch {
        return this.onBadMessage(channel)
      }
      if (typeof message?.event !== 'string') return this.onBadMessage(channel)
      this.deliver(channel.slice(this.prefix.length), message)
    })
  }

  /** Publishes to every channel; a failure is a `ServiceUnavailableError` (the message may still arrive later: ids let receivers drop a copy). */
  async publish(channels: string[], message: RelayMessage): Promise<void> {
    const text = JSON.stringify(message)
    try {
      if (channels.length === 1) {
        await this.publisher.publish(this.prefix + channels[0], text)
        return
      }
      const pipeline = this.publisher.pipeline()
      for (const channel of channels) pipeline.publish(this.prefix + channel, text)
      const results = (await pipeline.exec()) ?? []
      const failed = results.find(([error]) => error)
      if (failed) throw failed[0]
    } catch (error) {
      this.onFailure(error)
      throw unavailable(error)
    }
  }
}

/** A prefix such as `app[1]:` must match literally in PSUBSCRIBE. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&')
}
