import { ServiceUnavailableError } from '../../../../core/index.ts'
import { verifyChannelAuth } from '../../../../plugins/broadcasting/index.ts'
import type { ChannelStore } from './channel-store.ts'
import type { PresenceMember } from './hub.ts'
import type { Connection } from '../connections/connection.ts'
import type { LocalSockets } from '../connections/local-sockets.ts'
import type { RtLimits } from '../connections/rt-limits.ts'
import { RtError } from '../protocol/error-codes.ts'
import { MEMBER_ADDED, MEMBER_REMOVED, readMember } from '../protocol/rt-frames.ts'
import type { WireProtocol } from '../protocol/wire-protocol.ts'
import type { RtConfig } from '../rt-config.ts'
import type { RtCredentials } from '../rt-types.ts'
import type { RedisRelay, RelayMessage } from '../scaling/redis-relay.ts'

/** What the channel frames need of the realtime engine: its parts, and the store and relay it has now (both change when scaling starts). */
export interface ChannelFramesHost {
  readonly config: RtConfig
  readonly credentials: RtCredentials
  readonly sockets: LocalSockets
  readonly limits: RtLimits
  store(): ChannelStore
  relay(): RedisRelay | undefined
  /** Delivers here, or through Redis when scaling. */
  emit(channels: string[], message: RelayMessage): Promise<void>
  /** A presence notice that could not go out (Redis down with scaling). */
  unsent(channel: string, error: unknown): void
}

/**
 * A socket's channel frames: subscribe (budgets, auth signatures, presence
 * records, the channel limit), unsubscribe and client events, and recording
 * a departure. The realtime engine hands them the frames it has parsed.
 *
 * @example
 * ```ts
 * const frames = new ChannelFrames(host)
 * await frames.subscribe(connection, 'presence-room', auth, channelData)
 * await frames.clientEvent(connection, 'client-typing', 'presence-room', { typing: true })
 * ```
 */
export class ChannelFrames {
  constructor(private readonly host: ChannelFramesHost) {}

  /** A subscribe frame: budgets first, then the channel limit, the auth signature and presence record; recorded, then answered. */
  async subscribe(connection: Connection, channel: string, auth?: string, channelData?: string): Promise<void> {
    const { protocol } = connection
    // Counted first, before any other work a flood of subscribe frames would cause: the socket's own budget, then its address's.
    const rate = this.host.config.subscribe_rate
    if ((rate && !connection.takeSubscribe(rate.limit, rate.per_seconds)) || !(await this.host.limits.takeSubscribe(connection.slot))) {
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
      return connection.send(protocol.subscribed(channel, presence ? await this.host.store().members(channel) : undefined))
    }
    const maxChannels = this.host.config.max_channels_per_connection
    if (connection.channelCount >= maxChannels) {
      return connection.send(protocol.subscriptionError(channel, RtError.SubscriptionRefused, `A connection may join at most ${maxChannels} channels.`))
    }
    let member: PresenceMember | undefined
    if (presence || channel.startsWith('private-')) {
      const secrets = [this.host.credentials.secret, ...(this.host.credentials.previousSecrets ?? [])]
      if (
        !secrets.some((secret) => verifyChannelAuth(auth, this.host.credentials.key, secret, connection.socketId, channel, presence ? channelData : undefined))
      ) {
        return connection.send(protocol.subscriptionError(channel, RtError.SubscriptionRefused, `The auth signature for ${channel} is missing or invalid.`))
      }
      if (presence) {
        member = readMember(channelData)
        if (!member)
          return connection.send(protocol.subscriptionError(channel, RtError.SubscriptionRefused, 'Presence channels need channel_data with a user_id.'))
      }
    }
    // Not hearing the relay yet (its Redis connection is coming back): subscribed now, the socket would miss broadcasts.
    const relay = this.host.relay()
    if (relay && !relay.listening) return connection.send(tryAgain(protocol, channel))
    this.host.sockets.join(channel, connection, member ?? null)
    let members: PresenceMember[] | undefined
    try {
      const first = await this.host.store().join(channel, connection.socketId, member)
      members = member ? await this.host.store().members(channel) : undefined
      if (member && first && !connection.closed) await this.host.emit([channel], { event: MEMBER_ADDED, data: member, socket: connection.socketId })
    } catch (error) {
      if (!(error instanceof ServiceUnavailableError)) throw error
      // Not (fully) recorded, so not subscribed: undo, and tell the client instead of letting it believe it is.
      // Whatever Redis did record anyway (a timeout it carried out later) is healed once it answers again.
      this.host.sockets.leave(channel, connection)
      void this.host
        .store()
        .leave(channel, connection.socketId, member)
        .catch((error: unknown) => this.host.unsent(channel, error))
      return connection.send(tryAgain(protocol, channel))
    }
    if (connection.closed) return
    connection.send(protocol.subscribed(channel, members))
  }

  /** An unsubscribe frame: off the channel here at once, whatever the store says. */
  async unsubscribe(connection: Connection, channel: string): Promise<void> {
    if (!connection.isOn(channel)) return
    const member = connection.memberOn(channel) ?? undefined
    this.host.sockets.leave(channel, connection)
    // Unsubscribed here whatever Redis says: a departure it missed is healed once it answers again.
    await this.forget(connection.socketId, channel, member).catch((error: unknown) => {
      if (!(error instanceof ServiceUnavailableError)) throw error
    })
  }

  /** A client event: only on private and presence channels the socket is on, within its budget; sent to the others there. */
  async clientEvent(connection: Connection, event: string, channel: string, data: unknown): Promise<void> {
    const refuse = (message: string) => connection.send(connection.protocol.error(RtError.ClientEventRefused, message))
    if (!this.host.config.client_events) return refuse('Client events are disabled on this connection.')
    if (!(channel.startsWith('private-') || channel.startsWith('presence-')) || channel.startsWith('private-encrypted-'))
      return refuse('Client events are only allowed on private and presence channels.')
    if (!connection.isOn(channel)) return refuse(`Subscribe to ${channel} before sending client events on it.`)
    const { limit, per_seconds: perSeconds } = this.host.config.client_event_rate
    if (!connection.takeClientEvent(limit, perSeconds))
      return connection.fail(RtError.ClientEventRateLimited, `At most ${limit} client events per ${perSeconds} s.`)
    const member = connection.memberOn(channel)
    await this.host.emit([channel], { event, data, socket: connection.socketId, ...(member ? { user_id: member.user_id } : {}) })
  }

  /** Records a departure; the last socket of a presence member leaving announces that the member left. */
  async forget(socketId: string, channel: string, member?: PresenceMember): Promise<void> {
    const last = await this.host.store().leave(channel, socketId, member)
    if (member && last) await this.host.emit([channel], { event: MEMBER_REMOVED, data: { user_id: member.user_id }, socket: null })
  }
}

/** The refusal of a subscription Redis could not record right now: the client may try again (`@kiln/rt` does). */
function tryAgain(protocol: WireProtocol, channel: string): string {
  return protocol.subscriptionError(channel, RtError.TryAgain, `Could not subscribe to ${channel} right now; try again shortly.`)
}
