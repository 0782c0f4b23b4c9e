import type { Hooks, Peer } from 'crossws'
import { ServiceUnavailableError, type Logger, type RedisClient, type RedisHealth } from '../../core/index.ts'
import { encryptPayload, verifyChannelAuth } from '../../plugins/broadcasting/index.ts'
import type { ChannelStore } from './channels/channel-store.ts'
import { Connection } from './connections/connection.ts'
import { RtError } from './protocol/error-codes.ts'
import type { ChannelInfo, PresenceMember, RtHub } from './channels/hub.ts'
import { LocalDelivery } from './connections/local-delivery.ts'
import { LocalSockets } from './connections/local-sockets.ts'
import { MemoryChannelStore } from './channels/memory-channel-store.ts'
import { originAccepted } from './connections/origin.ts'
import { RtLimits } from './connections/rt-limits.ts'
import type { HealedChange, ReapedMember } from './channels/redis-channel-store.ts'
import type { RedisRelay, RelayMessage } from './scaling/redis-relay.ts'
import { startScaling } from './scaling/rt-scaling.ts'
import { isEncryptedChannel, isSealed } from './protocol/sealed-payload.ts'
import { MEMBER_ADDED, MEMBER_REMOVED, readMember } from './protocol/rt-frames.ts'
import type { RtConfig } from './rt-config.ts'
import type { Inbound, WireProtocol } from './protocol/wire-protocol.ts'
import type { PublishOptions, Refusal, RtCredentials } from './rt-types.ts'

const reservedEvent = /^(svc:|pusher:|pusher_internal:)/

/**
 * What `RtServer` runs once it loads: the sockets, the channel store, local
 * delivery and (with scaling on) the Redis relay. Its own module, loaded by
 * `RtServer.start()` or the first publish or query, so that an app whose
 * active broadcast connection is not the websocket one never loads it or
 * the twenty-odd modules it imports (issue 25, P6). @internal
 *
 * @example
 * ```ts
 * const { RtEngine } = await import('./rt-engine.ts')
 * const engine = new RtEngine(config, { key, secret }, app.logger)
 * ```
 */
export class RtEngine implements RtHub {
  private readonly sockets = new LocalSockets()
  private readonly delivery: LocalDelivery
  private readonly limits: RtLimits
  private store: ChannelStore = new MemoryChannelStore(this.sockets)
  private relay?: RedisRelay
  private redis: RedisClient[] = []
  private health?: RedisHealth
  private sweeper?: NodeJS.Timeout
  private starting?: Promise<void>
  private stopped = false

  constructor(
    readonly config: RtConfig,
    private readonly credentials: RtCredentials,
    private readonly logger: Logger,
  ) {
    this.delivery = new LocalDelivery(this.sockets, config.max_buffered_bytes, logger)
    this.limits = new RtLimits(config)
  }

  /** Connections held by this process. @example `server.size` */
  get size(): number {
    return this.sockets.size
  }

  /** Starts the keepalive sweep and, with scaling on, the Redis relay. Idempotent. */
  start(): Promise<void> {
    this.starting ??= this.boot()
    return this.starting
  }

  /** crossws hooks serving `protocol` (mount them with `router.websocket`). */
  hooks(protocol: WireProtocol, refuse: (request: Request) => Refusal | undefined = () => undefined): Partial<Hooks> {
    return {
      open: (peer) => this.open(peer, protocol, refuse(peer.request)),
      message: (peer, message) => {
        const connection = this.sockets.of(peer)
        if (!connection || connection.closed) return
        connection.lastSeen = this.sockets.now
        if (typeof message.rawData !== 'string') return connection.fail(RtError.NotJsonObject, 'Frames must be JSON text.')
        return this.receive(connection, message.rawData)
      },
      pong: (peer) => {
        const connection = this.sockets.of(peer)
        if (connection) connection.lastSeen = this.sockets.now
      },
      close: (peer) => this.drop(peer),
      error: (peer, error) => this.logger.debug({ socket: this.sockets.of(peer)?.socketId, err: error.message }, 'rt socket error'),
    }
  }

  /**
   * Sends an event to every socket on the channels (but `except`). On a
   * `private-encrypted-` channel the payload goes out sealed for that
   * channel (`{nonce, ciphertext}`), as the Pusher protocol has it, unless
   * the publisher sealed it already (`sealed`). The plain payload never
   * leaves the process on such a channel.
   */
  async publish(channels: string[], event: string, data: unknown, except?: string, options: PublishOptions = {}): Promise<void> {
    if (reservedEvent.test(event)) throw new Error(`The event name "${event}" is reserved for the realtime protocol.`)
    const base = { event, socket: except ?? null, ...(options.id ? { id: options.id } : {}) }
    const plain = channels.filter((channel) => !isEncryptedChannel(channel))
    const encrypted = channels.filter(isEncryptedChannel)
    if (encrypted.length > 0 && options.sealed && !isSealed(data))
      throw new Error(`Events on ${encrypted[0]} must be sealed by the publisher as {nonce, ciphertext}.`)
    if (encrypted.length > 0 && !options.sealed && !this.credentials.masterKey)
      throw new Error(`Cannot broadcast on ${encrypted[0]}: no encryption master key is configured.`)
    if (plain.length > 0) await this.emit(plain, { ...base, data })
    for (const channel of encrypted) {
      await this.emit([channel], { ...base, data: options.sealed ? data : encryptPayload(channel, data, this.credentials.masterKey!) })
    }
  }

  channels(prefix?: string): Promise<Map<string, ChannelInfo>> {
    return this.store.channels(prefix)
  }

  channel(name: string): Promise<ChannelInfo> {
    return this.store.channel(name)
  }

  members(name: string): Promise<PresenceMember[]> {
    return this.store.members(name)
  }

  /** Closes every socket and the Redis connections. */
  async close(): Promise<void> {
    this.stopped = true
    clearInterval(this.sweeper)
    for (const connection of this.sockets.byId.values()) connection.peer.close(1001, 'Server shutting down')
    await this.store.close()
    // Closing on purpose is not an outage: nothing to warn about.
    this.health?.stop()
    await Promise.all(this.redis.map((client) => client.quit().catch(() => client.disconnect())))
  }

  private async boot(): Promise<void> {
    const interval = Math.max(250, (this.config.activity_timeout * 1000) / 2)
    this.sweeper = setInterval(() => this.sockets.sweep(this.config.activity_timeout * 1000, interval), interval)
    this.sweeper.unref()
    if (!this.config.scaling.enabled) return
    const scaling = await startScaling(this.config.scaling, this.logger, {
      deliver: (channel, message) => this.delivery.deliver(channel, message),
      reaped: (reaped) => this.announceReaped(reaped),
      local: () => this.sockets.subscriptions(),
      healed: (changes) => this.announceHealed(changes),
    })
    this.store = scaling.store
    this.relay = scaling.relay
    this.health = scaling.health
    this.redis = scaling.clients
  }

  /** Others were told these members left while Redis lost them (or were never told they left): tell them now. */
  private announceHealed(changes: HealedChange[]): void {
    for (const { channel, member, socketId, joined } of changes) {
      const message = joined
        ? { event: MEMBER_ADDED, data: member, socket: socketId }
        : { event: MEMBER_REMOVED, data: { user_id: member.user_id }, socket: null }
      this.emit([channel], message).catch((error: unknown) => this.unsent(channel, error))
    }
  }

  /**
   * A presence notice that could not go out (Redis down with scaling): the
   * outage itself is logged once by the scaling health watch, so each notice
   * is a debug line; rosters heal when Redis answers again.
   */
  private unsent(channel: string, error: unknown): void {
    this.logger.debug({ channel, err: error instanceof Error ? error.message : String(error) }, 'rt: a presence notice could not be sent')
  }

  private open(peer: Peer, protocol: WireProtocol, refusal: Refusal | undefined): void {
    const connection = new Connection(this.sockets.newSocketId(), peer, protocol, this.sockets.now)
    this.sockets.attach(peer, connection)
    if (refusal) return connection.fail(refusal.code, refusal.message)
    if (!this.config.allowed_origins.includes('*') && !originAccepted(peer.request, this.config.allowed_origins)) {
      return connection.fail(RtError.OriginNotAllowed, 'This origin may not connect.')
    }
    if (this.config.max_connections !== null && this.sockets.size >= this.config.max_connections)
      return connection.fail(RtError.OverQuota, 'The server holds its maximum number of connections.')
    if (this.limits.byAddress) {
      const slot = this.limits.admit(this.limits.address(peer))
      if (typeof slot === 'string') return connection.fail(RtError.OverQuota, slot)
      connection.slot = slot
    }
    this.sockets.add(connection)
    connection.send(protocol.established(connection.socketId, this.config.activity_timeout))
  }

  private receive(connection: Connection, text: string): Promise<void> | void {
    const max = this.config.max_frame_bytes
    if (text.length > max || Buffer.byteLength(text) > max) return connection.fail(RtError.FrameTooLarge, `Frames are limited to ${max} bytes.`)
    const frame = connection.protocol.parse(text)
    return this.handle(connection, frame).catch((error: Error) => {
      // A Redis outage is logged once, where it was noticed; anything else is a bug worth a line each.
      if (!(error instanceof ServiceUnavailableError))
        this.logger.error({ socket: connection.socketId, err: error.message }, 'rt: a frame could not be handled')
      connection.fail(RtError.TryAgain, 'The server could not handle that frame; try again.')
    })
  }

  private async handle(connection: Connection, frame: Inbound): Promise<void> {
    switch (frame.kind) {
      case 'ping':
        return connection.send(connection.protocol.pong())
      case 'pong':
        return
      case 'subscribe':
        return this.subscribe(connection, frame.channel, frame.auth, frame.channelData)
      case 'unsubscribe':
        return this.unsubscribe(connection, frame.channel)
      case 'client-event':
        return this.clientEvent(connection, frame.event, frame.channel, frame.data)
      case 'invalid':
        return connection.fail(frame.code, frame.message)
    }
  }

  private async subscribe(connection: Connection, channel: string, auth?: string, channelData?: string): Promise<void> {
    const { protocol } = connection
    // Counted first, before any other work a flood of subscribe frames would cause: the socket's own budget, then its address's.
    const rate = this.config.subscribe_rate
    if ((rate && !connection.takeSubscribe(rate.limit, rate.per_seconds)) || !(await this.limits.takeSubscribe(connection.slot))) {
      return connection.send(
        protocol.subscriptionError(
          channel,
          RtError.SubscribeRateLimited,
          `Too many subscriptions from this connection or address; subscribe to ${channel} again shortly.`,
        ),
      )
    }
    // Closed while its address's budget was read: nothing to record for it.
    if (connection.closed) return
    const presence = channel.startsWith('presence-')
    if (connection.isOn(channel)) {
      return connection.send(protocol.subscribed(channel, presence ? await this.store.members(channel) : undefined))
    }
    const maxChannels = this.config.max_channels_per_connection
    if (connection.channelCount >= maxChannels) {
      return connection.send(protocol.subscriptionError(channel, RtError.SubscriptionRefused, `A connection may join at most ${maxChannels} channels.`))
    }
    let member: PresenceMember | undefined
    if (presence || channel.startsWith('private-')) {
      const secrets = [this.credentials.secret, ...(this.credentials.previousSecrets ?? [])]
      if (!secrets.some((secret) => verifyChannelAuth(auth, this.credentials.key, secret, connection.socketId, channel, presence ? channelData : undefined))) {
        return connection.send(protocol.subscriptionError(channel, RtError.SubscriptionRefused, `The auth signature for ${channel} is missing or invalid.`))
      }
      if (presence) {
        member = readMember(channelData)
        if (!member)
          return connection.send(protocol.subscriptionError(channel, RtError.SubscriptionRefused, 'Presence channels need channel_data with a user_id.'))
      }
    }
    // Not hearing the relay yet (its Redis connection is coming back): subscribed now, the socket would miss broadcasts.
    if (this.relay && !this.relay.listening) return connection.send(tryAgain(protocol, channel))
    this.sockets.join(channel, connection, member ?? null)
    let members: PresenceMember[] | undefined
    try {
      const first = await this.store.join(channel, connection.socketId, member)
      members = member ? await this.store.members(channel) : undefined
      if (member && first && !connection.closed) await this.emit([channel], { event: MEMBER_ADDED, data: member, socket: connection.socketId })
    } catch (error) {
      if (!(error instanceof ServiceUnavailableError)) throw error
      // Not (fully) recorded, so not subscribed: undo, and tell the client instead of letting it believe it is.
      // Whatever Redis did record anyway (a timeout it carried out later) is healed once it answers again.
      this.sockets.leave(channel, connection)
      void this.store.leave(channel, connection.socketId, member).catch((error: unknown) => this.unsent(channel, error))
      return connection.send(tryAgain(protocol, channel))
    }
    if (connection.closed) return
    connection.send(protocol.subscribed(channel, members))
  }

  private async unsubscribe(connection: Connection, channel: string): Promise<void> {
    if (!connection.isOn(channel)) return
    const member = connection.memberOn(channel) ?? undefined
    this.sockets.leave(channel, connection)
    // Unsubscribed here whatever Redis says: a departure it missed is healed once it answers again.
    await this.forget(connection.socketId, channel, member).catch((error: unknown) => {
      if (!(error instanceof ServiceUnavailableError)) throw error
    })
  }

  private async clientEvent(connection: Connection, event: string, channel: string, data: unknown): Promise<void> {
    const refuse = (message: string) => connection.send(connection.protocol.error(RtError.ClientEventRefused, message))
    if (!this.config.client_events) return refuse('Client events are disabled on this connection.')
    if (!(channel.startsWith('private-') || channel.startsWith('presence-')) || channel.startsWith('private-encrypted-'))
      return refuse('Client events are only allowed on private and presence channels.')
    if (!connection.isOn(channel)) return refuse(`Subscribe to ${channel} before sending client events on it.`)
    const { limit, per_seconds: perSeconds } = this.config.client_event_rate
    if (!connection.takeClientEvent(limit, perSeconds))
      return connection.fail(RtError.ClientEventRateLimited, `At most ${limit} client events per ${perSeconds} s.`)
    const member = connection.memberOn(channel)
    await this.emit([channel], { event, data, socket: connection.socketId, ...(member ? { user_id: member.user_id } : {}) })
  }

  private async drop(peer: Peer): Promise<void> {
    const connection = this.sockets.of(peer)
    if (!connection) return
    this.sockets.detach(peer)
    connection.closed = true
    this.sockets.remove(connection)
    if (connection.slot) this.limits.release(connection.slot)
    for (const [channel, member] of [...connection.channels()]) {
      this.sockets.unindex(channel, connection)
      if (this.stopped) continue
      await this.forget(connection.socketId, channel, member ?? undefined).catch((error: Error) => {
        // During an outage the departure is recorded when Redis is back (the outage itself is logged once).
        if (!(error instanceof ServiceUnavailableError)) this.logger.warn({ err: error.message, channel }, 'rt: could not record a departure')
      })
    }
    connection.clearChannels()
  }

  private async forget(socketId: string, channel: string, member?: PresenceMember): Promise<void> {
    const last = await this.store.leave(channel, socketId, member)
    if (member && last) await this.emit([channel], { event: MEMBER_REMOVED, data: { user_id: member.user_id }, socket: null })
  }

  private announceReaped(reaped: ReapedMember[]): void {
    for (const { channel, member } of reaped) {
      this.emit([channel], { event: MEMBER_REMOVED, data: { user_id: member.user_id }, socket: null }).catch((error: unknown) => this.unsent(channel, error))
    }
  }

  /** Local delivery, or through Redis when scaling (then every process delivers what it hears, this one included). */
  private async emit(channels: string[], message: RelayMessage): Promise<void> {
    if (this.relay) return this.relay.publish(channels, message)
    for (const channel of channels) this.delivery.deliver(channel, message)
  }
}

/** The refusal of a subscription Redis could not record right now: the client may try again (`@kiln/rt` does). */
function tryAgain(protocol: WireProtocol, channel: string): string {
  return protocol.subscriptionError(channel, RtError.TryAgain, `Could not subscribe to ${channel} right now; try again shortly.`)
}
