import type { Hooks } from 'crossws'
import { KilnError, TrustedProxies, type Logger } from '../../../core/index.ts'
import type { ChannelInfo, PresenceMember, RtHub } from './channels/hub.ts'
import type { RtEngine } from './rt-engine.ts'
import type { RtConfig } from './rt-config.ts'
import type { WireProtocol } from './protocol/wire-protocol.ts'
import type { PublishOptions, Refusal, RtCredentials } from './rt-types.ts'

export type { PublishOptions, Refusal, RtCredentials } from './rt-types.ts'

/**
 * Kiln's realtime server: holds this process's sockets, checks subscriptions
 * against the connection's key and secret, keeps presence rosters, forwards
 * client events, and (with scaling on) relays everything through Redis so
 * several processes act as one. It speaks any {@link WireProtocol}; the
 * driver mounts it for the native protocol and for Pusher's.
 *
 * Making one costs nothing: the sockets, channels, delivery and scaling
 * code (some twenty modules) loads with `start()` or the first publish or
 * query, so an app whose active broadcast connection is another one (`log`)
 * never loads it (issue 25, P6).
 *
 * @example
 * ```ts
 * const server = new RtServer(config, { key, secret }, app.logger, app.service('proxies'))
 * await server.start()
 * app.router.websocket('/broadcasting/socket', server.hooks(svcProtocol))
 * await server.publish(['news'], 'Published', { id: 1 })
 * ```
 */
export class RtServer implements RtHub {
  private engine?: RtEngine
  private loading?: Promise<RtEngine>
  private starting?: Promise<void>

  constructor(
    readonly config: RtConfig,
    private readonly credentials: RtCredentials,
    private readonly logger: Logger,
    /** `http.trusted_proxies`: whose forwarding headers name a socket's client address for the per-address limits. */
    private readonly proxies: TrustedProxies = TrustedProxies.none,
  ) {}

  /** Connections held by this process. @example `server.size` */
  get size(): number {
    return this.engine?.size ?? 0
  }

  /** Loads the server, starts the keepalive sweep and, with scaling on, the Redis relay. Idempotent. @example `await server.start()` */
  start(): Promise<void> {
    this.starting ??= this.load().then((engine) => engine.start())
    return this.starting
  }

  /**
   * crossws hooks serving `protocol` (mount them with `router.websocket`),
   * once `start()` has resolved.
   *
   * @example
   * ```ts
   * await server.start()
   * app.router.websocket('/broadcasting/socket', server.hooks(svcProtocol))
   * ```
   */
  hooks(protocol: WireProtocol, refuse?: (request: Request) => Refusal | undefined): Partial<Hooks> {
    if (!this.engine) throw new KilnError('The realtime server is not started: `await server.start()` before mounting its hooks.', { code: 'E_RT_NOT_STARTED' })
    return this.engine.hooks(protocol, refuse)
  }

  /**
   * Sends an event to every socket on the channels (but `except`). On a
   * `private-encrypted-` channel the payload goes out sealed for that
   * channel (`{nonce, ciphertext}`), as the Pusher protocol has it, unless
   * the publisher sealed it already (`sealed`). The plain payload never
   * leaves the process on such a channel.
   *
   * @example
   * ```ts
   * await server.publish(['orders.1'], 'OrderShipped', { id: 1 })
   * ```
   */
  async publish(channels: string[], event: string, data: unknown, except?: string, options?: PublishOptions): Promise<void> {
    return (this.engine ?? (await this.load())).publish(channels, event, data, except, options)
  }

  /** Occupied channels, optionally only those starting with `prefix`. @example `await server.channels('presence-')` */
  async channels(prefix?: string): Promise<Map<string, ChannelInfo>> {
    return (this.engine ?? (await this.load())).channels(prefix)
  }

  /** What is known about one channel. @example `(await server.channel('news')).subscriptionCount` */
  async channel(name: string): Promise<ChannelInfo> {
    return (this.engine ?? (await this.load())).channel(name)
  }

  /** Distinct members of a presence channel. @example `await server.members('presence-chat')` */
  async members(name: string): Promise<PresenceMember[]> {
    return (this.engine ?? (await this.load())).members(name)
  }

  /** Closes every socket and the Redis connections (nothing to do when the server never loaded). @example `await server.close()` */
  async close(): Promise<void> {
    const engine = this.engine ?? (await this.loading)
    await engine?.close()
  }

  private load(): Promise<RtEngine> {
    this.loading ??= import('./rt-engine.ts').then(({ RtEngine }) => (this.engine = new RtEngine(this.config, this.credentials, this.logger, this.proxies)))
    return this.loading
  }
}
