import { randomInt } from 'node:crypto'
import type { Hooks, Peer } from 'crossws'
import type { Redis } from 'ioredis'
import type { Logger } from '../../core/index.ts'
import { verifyChannelAuth } from '../../plugins/broadcasting/index.ts'
import type { ChannelStore } from './channel-store.ts'
import { Connection } from './connection.ts'
import { RtError } from './error-codes.ts'
import type { ChannelInfo, PresenceMember, RtHub } from './hub.ts'
import { MemoryChannelStore } from './memory-channel-store.ts'
import { originAllowed } from './origin.ts'
import { RedisChannelStore, type ReapedMember } from './redis-channel-store.ts'
import { RedisRelay, type RelayMessage } from './redis-relay.ts'
import type { RtConfig } from './rt-config.ts'
import type { Inbound, WireProtocol } from './wire-protocol.ts'

const MEMBER_ADDED = 'svc:member_added'
const MEMBER_REMOVED = 'svc:member_removed'
const reservedEvent = /^(svc:|pusher:|pusher_internal:)/
const forbiddenUserIds = new Set(['__proto__', 'constructor', 'prototype'])
const MAX_CHANNELS_PER_CONNECTION = 100

/** Why a mount refuses a connection at open (for example a wrong Pusher app key). */
export interface Refusal {
  code: number
  message: string
}

/** Credentials the server verifies subscriptions with. */
export interface RtCredentials {
  key: string
  secret: string
}

/**
 * Kiln's realtime server: holds this process's sockets, checks subscriptions
 * against the connection's key and secret, keeps presence rosters, forwards
 * client events, and (with scaling on) relays everything through Redis so
 * several processes act as one. It speaks any {@link WireProtocol}; the
 * driver mounts it for the native protocol and for Pusher's.
 *
 * @example
 * ```ts
 * const server = new RtServer(config, { key, secret }, app.logger)
 * await server.start()
 * app.router.websocket('/broadcasting/socket', server.hooks(svcProtocol))
 * await server.publish(['news'], 'Published', { id: 1 })
 * ```
 */
export class RtServer implements RtHub {
  private readonly connections = new Map<string, Connection>()
  private readonly byPeer = new WeakMap<Peer, Connection>()
  private readonly local = new Map<string, Set<Connection>>()
  private store: ChannelStore = new MemoryChannelStore()
  private relay?: RedisRelay
  private redis: Redis[] = []
  private sweeper?: NodeJS.Timeout
  private starting?: Promise<void>
  private stopped = false

  constructor(
    readonly config: RtConfig,
    private readonly credentials: RtCredentials,
    private readonly logger: Logger,
  ) {}

  /** Connections held by this process. @example `server.size` */
  get size(): number {
    return this.connections.size
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
        const connection = this.byPeer.get(peer)
        if (!connection || connection.closed) return
        connection.lastSeen = Date.now()
        if (typeof message.rawData !== 'string') return connection.fail(RtError.NotJsonObject, 'Frames must be JSON text.')
        return this.receive(connection, message.rawData)
      },
      pong: (peer) => {
        const connection = this.byPeer.get(peer)
        if (connection) connection.lastSeen = Date.now()
      },
      close: (peer) => this.drop(peer),
      error: (peer, error) => this.logger.debug({ socket: this.byPeer.get(peer)?.socketId, err: error.message }, 'rt socket error'),
    }
  }

  async publish(channels: string[], event: string, data: unknown, except?: string): Promise<void> {
    if (reservedEvent.test(event)) throw new Error(`The event name "${event}" is reserved for the realtime protocol.`)
    await this.emit(channels, { event, data, socket: except ?? null })
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
    for (const connection of this.connections.values()) connection.peer.close(1001, 'Server shutting down')
    await this.store.close()
    await Promise.all(this.redis.map((client) => client.quit().catch(() => client.disconnect())))
  }

  private async boot(): Promise<void> {
    const interval = Math.max(250, (this.config.activity_timeout * 1000) / 2)
    this.sweeper = setInterval(() => this.sweep(), interval)
    this.sweeper.unref()
    if (!this.config.scaling.enabled) return
    const { Redis: IORedis } = await import('ioredis')
    const url = this.config.scaling.url ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
    const publisher = new IORedis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true })
    const subscriber = publisher.duplicate()
    this.redis = [publisher, subscriber]
    for (const client of this.redis) client.on('error', (error) => this.logger.warn({ err: error.message }, 'rt: Redis connection error'))
    const prefix = this.config.scaling.prefix
    const store = new RedisChannelStore(publisher, prefix, this.config.scaling.heartbeat_seconds * 1000, (reaped) => this.announceReaped(reaped))
    this.store = store
    this.relay = new RedisRelay(publisher, subscriber, prefix, (channel, message) => this.deliver(channel, message), (channel) =>
      this.logger.warn({ channel }, 'rt: ignored a relay message that is not Kiln JSON'),
    )
    await Promise.all([store.start(), this.relay.start()])
  }

  private open(peer: Peer, protocol: WireProtocol, refusal: Refusal | undefined): void {
    const connection = new Connection(this.newSocketId(), peer, protocol)
    this.byPeer.set(peer, connection)
    if (refusal) return connection.fail(refusal.code, refusal.message)
    // Reading headers materialises a Headers object kept for the socket's life: only when origins are restricted.
    const restricted = !this.config.allowed_origins.includes('*')
    if (restricted && !originAllowed(peer.request.headers.get('origin'), this.config.allowed_origins)) return connection.fail(RtError.OriginNotAllowed, 'This origin may not connect.')
    if (this.config.max_connections !== null && this.connections.size >= this.config.max_connections) return connection.fail(RtError.OverQuota, 'The server holds its maximum number of connections.')
    this.connections.set(connection.socketId, connection)
    connection.send(protocol.established(connection.socketId, this.config.activity_timeout))
  }

  private receive(connection: Connection, text: string): Promise<void> | void {
    const max = this.config.max_frame_bytes
    if (text.length > max || Buffer.byteLength(text) > max) return connection.fail(RtError.FrameTooLarge, `Frames are limited to ${max} bytes.`)
    const frame = connection.protocol.parse(text)
    return this.handle(connection, frame).catch((error: Error) => {
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
    const presence = channel.startsWith('presence-')
    if (connection.channels.has(channel)) {
      return connection.send(protocol.subscribed(channel, presence ? await this.store.members(channel) : undefined))
    }
    if (connection.channels.size >= MAX_CHANNELS_PER_CONNECTION) {
      return connection.send(protocol.subscriptionError(channel, RtError.SubscriptionRefused, `A connection may join at most ${MAX_CHANNELS_PER_CONNECTION} channels.`))
    }
    let member: PresenceMember | undefined
    if (presence || channel.startsWith('private-')) {
      if (!verifyChannelAuth(auth, this.credentials.key, this.credentials.secret, connection.socketId, channel, presence ? channelData : undefined)) {
        return connection.send(protocol.subscriptionError(channel, RtError.SubscriptionRefused, `The auth signature for ${channel} is missing or invalid.`))
      }
      if (presence) {
        member = readMember(channelData)
        if (!member) return connection.send(protocol.subscriptionError(channel, RtError.SubscriptionRefused, 'Presence channels need channel_data with a user_id.'))
      }
    }
    connection.channels.set(channel, member ?? null)
    this.localSet(channel).add(connection)
    const first = await this.store.join(channel, connection.socketId, member)
    if (connection.closed) return
    connection.send(protocol.subscribed(channel, member ? await this.store.members(channel) : undefined))
    if (member && first) await this.emit([channel], { event: MEMBER_ADDED, data: member, socket: connection.socketId })
  }

  private async unsubscribe(connection: Connection, channel: string): Promise<void> {
    if (!connection.channels.has(channel)) return
    const member = connection.channels.get(channel) ?? undefined
    connection.channels.delete(channel)
    this.localRemove(channel, connection)
    await this.forget(connection.socketId, channel, member)
  }

  private async clientEvent(connection: Connection, event: string, channel: string, data: unknown): Promise<void> {
    const refuse = (message: string) => connection.send(connection.protocol.error(RtError.ClientEventRefused, message))
    if (!this.config.client_events) return refuse('Client events are disabled on this connection.')
    if (!(channel.startsWith('private-') || channel.startsWith('presence-')) || channel.startsWith('private-encrypted-')) return refuse('Client events are only allowed on private and presence channels.')
    if (!connection.channels.has(channel)) return refuse(`Subscribe to ${channel} before sending client events on it.`)
    const { limit, per_seconds: perSeconds } = this.config.client_event_rate
    if (!connection.takeClientEvent(limit, perSeconds)) return connection.fail(RtError.ClientEventRateLimited, `At most ${limit} client events per ${perSeconds} s.`)
    const member = connection.channels.get(channel)
    await this.emit([channel], { event, data, socket: connection.socketId, ...(member ? { user_id: member.user_id } : {}) })
  }

  private async drop(peer: Peer): Promise<void> {
    const connection = this.byPeer.get(peer)
    if (!connection) return
    this.byPeer.delete(peer)
    connection.closed = true
    if (this.connections.get(connection.socketId) === connection) this.connections.delete(connection.socketId)
    for (const [channel, member] of connection.channels) {
      this.localRemove(channel, connection)
      if (!this.stopped) await this.forget(connection.socketId, channel, member ?? undefined).catch((error: Error) => this.logger.warn({ err: error.message, channel }, 'rt: could not record a departure'))
    }
    connection.channels.clear()
  }

  private async forget(socketId: string, channel: string, member?: PresenceMember): Promise<void> {
    const last = await this.store.leave(channel, socketId, member)
    if (member && last) await this.emit([channel], { event: MEMBER_REMOVED, data: { user_id: member.user_id }, socket: null })
  }

  private announceReaped(reaped: ReapedMember[]): void {
    for (const { channel, member } of reaped) {
      this.emit([channel], { event: MEMBER_REMOVED, data: { user_id: member.user_id }, socket: null }).catch(() => {})
    }
  }

  /** Local delivery, or through Redis when scaling (then every process delivers what it hears, this one included). */
  private async emit(channels: string[], message: RelayMessage): Promise<void> {
    if (this.relay) return this.relay.publish(channels, message)
    for (const channel of channels) this.deliver(channel, message)
  }

  private deliver(channel: string, message: RelayMessage): void {
    const subscribers = this.local.get(channel)
    if (!subscribers) return
    const encoded: Partial<Record<WireProtocol['name'], Buffer>> = {}
    for (const connection of subscribers) {
      if (connection.socketId === message.socket) continue
      const { protocol } = connection
      connection.sendEncoded((encoded[protocol.name] ??= Buffer.from(encode(protocol, channel, message))))
      // A client that stopped reading would otherwise grow this process's memory without bound.
      if (connection.peer.bufferedAmount > this.config.max_buffered_bytes) {
        connection.closed = true
        connection.peer.terminate()
      }
    }
  }

  private sweep(): void {
    const now = Date.now()
    const timeout = this.config.activity_timeout * 1000
    for (const connection of this.connections.values()) {
      const idle = now - connection.lastSeen
      if (idle > timeout * 2) {
        connection.closed = true
        connection.peer.close(RtError.Inactive, 'No activity')
        connection.peer.terminate()
      } else if (idle > timeout) {
        const ping = connection.protocol.ping()
        if (ping) connection.send(ping)
        connection.peer.ping()
      }
    }
  }

  private localSet(channel: string): Set<Connection> {
    let set = this.local.get(channel)
    if (!set) this.local.set(channel, (set = new Set()))
    return set
  }

  private localRemove(channel: string, connection: Connection): void {
    const set = this.local.get(channel)
    if (!set) return
    set.delete(connection)
    if (set.size === 0) this.local.delete(channel)
  }

  private newSocketId(): string {
    let id: string
    do id = `${randomInt(1, 2 ** 31)}.${randomInt(1, 2 ** 31)}`
    while (this.connections.has(id))
    return id
  }
}

function encode(protocol: WireProtocol, channel: string, message: RelayMessage): string {
  if (message.event === MEMBER_ADDED) return protocol.memberAdded(channel, message.data as PresenceMember)
  if (message.event === MEMBER_REMOVED) return protocol.memberRemoved(channel, (message.data as PresenceMember).user_id)
  return protocol.message(message.event, channel, message.data, message.user_id)
}

/** The presence record from signed `channel_data`: an object with a string or number `user_id`. */
function readMember(channelData: string | undefined): PresenceMember | undefined {
  if (!channelData) return undefined
  let value: unknown
  try {
    value = JSON.parse(channelData)
  } catch {
    return undefined
  }
  if (value === null || typeof value !== 'object') return undefined
  const { user_id: userId, user_info: userInfo } = value as Record<string, unknown>
  if (!((typeof userId === 'string' && userId !== '' && !forbiddenUserIds.has(userId)) || typeof userId === 'number')) return undefined
  return userInfo === undefined ? { user_id: userId } : { user_id: userId, user_info: userInfo }
}
