import { queueBroadcast } from './queue-broadcast.ts'
import type { ShouldBroadcast } from './should-broadcast.ts'
import { markToOthers } from './socket-ids.ts'

/**
 * `broadcast(event)`: broadcast an event without its other listeners.
 *
 * @example
 * ```ts
 * await broadcast(new MessagePosted(message)).toOthers()
 * await broadcast(new MessagePosted(message)).via('kv').send()
 * ```
 */
export class PendingBroadcast implements PromiseLike<void> {
  private sent?: Promise<void>

  constructor(readonly event: ShouldBroadcast) {}

  /**
   * Leaves out the socket named by the request's `X-Socket-ID`, when that
   * socket authenticated through `/broadcasting/auth` for this session (or
   * token); any other id is ignored and everyone receives the broadcast.
   *
   * @example `.toOthers()`
   */
  toOthers(): this {
    markToOthers(this.event)
    return this
  }

  /** Picks the broadcast connection. @example `.via('hosted')` */
  via(connection: string): this {
    this.event.broadcastVia = connection
    return this
  }

  /** Sends it (awaiting the object does the same). @example `await broadcast(e).send()` */
  send(): Promise<void> {
    return (this.sent ??= queueBroadcast(this.event))
  }

  then<R1 = void, R2 = never>(
    onfulfilled?: ((value: void) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): PromiseLike<R1 | R2> {
    return this.send().then(onfulfilled, onrejected)
  }
}

/**
 * Starts a broadcast of an event (no other listeners run).
 *
 * @example
 * ```ts
 * await broadcast(new OrderShipped(order)).toOthers()
 * ```
 */
export function broadcast(event: ShouldBroadcast): PendingBroadcast {
  return new PendingBroadcast(event)
}
