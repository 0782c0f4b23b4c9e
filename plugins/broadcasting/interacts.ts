import type { ShouldBroadcast } from './should-broadcast.ts'
import { markToOthers } from './socket-ids.ts'

type Constructor = abstract new (...args: any[]) => { socket?: string; broadcastVia?: string }

/**
 * Adds `dontBroadcastToCurrentUser()`: the broadcast leaves out the socket
 * named by the request's `X-Socket-ID` when the requester authenticated it
 * (what `broadcast(e).toOthers()` does).
 *
 * @example
 * ```ts
 * class MessagePosted extends InteractsWithSockets(ShouldBroadcast) { ... }
 * await new MessagePosted(msg).dontBroadcastToCurrentUser()
 * ```
 */
export function InteractsWithSockets<TBase extends Constructor>(Base: TBase) {
  abstract class WithSockets extends Base {
    /** @example `event.dontBroadcastToCurrentUser()` */
    dontBroadcastToCurrentUser(): this {
      // Checked when the event is sent: only a socket this requester authenticated is left out.
      markToOthers(this as unknown as ShouldBroadcast)
      return this
    }
  }
  return WithSockets
}

/**
 * Adds `broadcastVia(connection)`: picks the broadcast connection at run time.
 *
 * @example
 * ```ts
 * class Alert extends InteractsWithBroadcasting(ShouldBroadcast) { ... }
 * await event(new Alert().broadcastVia('hosted'))
 * ```
 */
export function InteractsWithBroadcasting<TBase extends Constructor>(Base: TBase) {
  abstract class WithBroadcasting extends Base {
    /** @example `event.via('kv')` */
    via(connection: string): this {
      this.broadcastVia = connection
      return this
    }
  }
  return WithBroadcasting
}
