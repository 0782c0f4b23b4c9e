import { currentHttpContext } from '../../core/index.ts'

type Constructor = abstract new (...args: any[]) => { socket?: string; broadcastVia?: string }

/**
 * Adds `dontBroadcastToCurrentUser()`: the broadcast leaves out the socket
 * named by the request's `X-Socket-ID` (what `broadcast(e).toOthers()` does).
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
      const socket = currentHttpContext()?.request.header('x-socket-id')
      if (socket && /^\d+\.\d+$/.test(socket)) this.socket = socket
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
