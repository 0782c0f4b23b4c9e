import type { Hooks, Peer } from 'crossws'
import { ServiceUnavailableError, TrustedProxies, type Logger, type RedisClient, type RedisHealth } from '../../../core/index.ts'
import { encryptPayload } from '../../../plugins/broadcasting/index.ts'
import { ChannelFrames } from './channels/channel-frames.ts'
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
import { MEMBER_ADDED, MEMBER_REMOVED } from './protocol/rt-frames.ts'
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
  private readonly frames: ChannelFrames
  private redis: RedisClient[] = []
  private health?: RedisHealth
  private sweeper?: NodeJS.Timeout
  private starting?: Promise<void>
  private stopped = false

  constructor(
    readonly config: RtConfig,
    private readonly credentials: RtCredentials,
    private readonly logger: Logger,
    proxies: TrustedProxies = TrustedProxies.none,
  ) {
    this.delivery = new LocalDelivery(this.sockets, config.max_buffered_bytes, logger)
    this.limits = new RtLimits(config, proxies)
    this.frames = new ChannelFrames({
      config: this.config,
      credentials: this.credentials,
      sockets: this.sockets,
      limits: this.limits,
      store: () => this.store,
      relay: () => this.relay,
      emit: (channels, message) => this.emit(channels, message),
      unsent: (channel, error) => this.unsent(channel, error),
    })
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
        return this.frames.subscribe(connection, frame.channel, frame.auth, frame.channelData)
      case 'unsubscribe':
        return this.frames.unsubscribe(connection, frame.channel)
      case 'client-event':
        return this.frames.clientEvent(connection, frame.event, frame.channel, frame.data)
      case 'invalid':
        return connection.fail(frame.code, frame.message)
    }
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
      await this.frames.forget(connection.socketId, channel, member ?? undefined).catch((error: Error) => {
        // During an outage the departure is recorded when Redis is back (the outage itself is logged once).
        if (!(error instanceof ServiceUnavailableError)) this.logger.warn({ err: error.message, channel }, 'rt: could not record a departure')
      })
    }
    connection.clearChannels()
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
