/** One subscriber's presence record: what the channel callback returned. */
export interface PresenceMember {
  user_id: string | number
  user_info?: unknown
}

/** What is known about one channel, across every rt process sharing a Redis. */
export interface ChannelInfo {
  occupied: boolean
  subscriptionCount: number
  /** Presence channels only: distinct users. */
  userCount?: number
}

/**
 * The rt server's delivery and state surface, as the broadcaster, the Pusher
 * HTTP API and the benches see it. With Redis scaling on, every method is
 * cluster-wide: `publish` reaches sockets held by other processes and the
 * queries read the rosters kept in Redis.
 *
 * @example
 * ```ts
 * await hub.publish(['orders.1'], 'OrderShipped', { id: 1 }, '123.456')
 * const info = await hub.channel('presence-chat')
 * ```
 */
export interface RtHub {
  /**
   * Delivers `{event, channel, data}` to every subscriber of each channel,
   * except the socket `except`. `data` is an object (native clients get it
   * as is) or a string (Pusher HTTP API; native clients get it parsed when
   * it is JSON). On `private-encrypted-` channels the data is sealed for
   * each channel, unless `options.sealed` says the publisher did it.
   */
  publish(channels: string[], event: string, data: unknown, except?: string, options?: { id?: string; sealed?: boolean }): Promise<void>
  /** Occupied channels, optionally only those starting with `prefix`. */
  channels(prefix?: string): Promise<Map<string, ChannelInfo>>
  channel(name: string): Promise<ChannelInfo>
  /** Distinct members of a presence channel. */
  members(name: string): Promise<PresenceMember[]>
}
