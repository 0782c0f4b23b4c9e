import { Event, Model } from '../../core/index.ts'
import { Channel } from './channels.ts'

/**
 * An event that is broadcast when dispatched, queued as a `BroadcastEvent`
 * job. Subclasses say where (`broadcastOn`) and may rename
 * (`broadcastAs`), reshape (`broadcastWith`) or suppress (`broadcastWhen`) it.
 *
 * @example
 * ```ts
 * class OrderShipped extends ShouldBroadcast {
 *   constructor(public order: Order) { super() }
 *   broadcastOn() { return [new PrivateChannel(`orders.${this.order.id}`)] }
 * }
 * await OrderShipped.dispatch(order)
 * ```
 */
export abstract class ShouldBroadcast extends Event {
  /** The socket to leave out (`toOthers()`), set from `X-Socket-ID`. */
  socket?: string
  /** The queue of the broadcast job. */
  broadcastQueue?: string
  /** The queue connection of the broadcast job (the broadcast connection is the active one, or `via()`'s). */
  broadcastConnection?: string
  /** The broadcast connection chosen with `via()`. */
  broadcastVia?: string

  abstract broadcastOn(): Array<Channel | string> | Channel | string

  /** The event name clients listen for: the class name by default. @example `broadcastAs() { return 'order.shipped' }` */
  broadcastAs(): string {
    return this.constructor.name
  }

  /**
   * The payload: public own properties, plus `socket`. Every value is
   * serialised as `JSON.stringify` would see it, through its `toJSON()`:
   * models honour `hidden` (a password hash never reaches a socket), dates
   * become ISO strings.
   *
   * @example
   * ```ts
   * broadcastWith() { return { id: this.order.id } }
   * ```
   */
  broadcastWith(): Record<string, unknown> {
    const payload: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(this)) {
      if (key.startsWith('broadcast') || typeof value === 'function') continue
      payload[key] = serialize(value)
    }
    payload.socket = this.socket ?? null
    return payload
  }

  /** A falsy result suppresses the broadcast. @example `broadcastWhen() { return this.order.total > 100 }` */
  broadcastWhen(): unknown {
    return true
  }
}

/**
 * Broadcast during dispatch, without the queue.
 *
 * @example
 * ```ts
 * class Typing extends ShouldBroadcastNow { broadcastOn() { return [new PresenceChannel('chat.1')] } }
 * ```
 */
export abstract class ShouldBroadcastNow extends ShouldBroadcast {}

/**
 * Queued only after the surrounding transaction commits; dropped on rollback.
 *
 * @example
 * ```ts
 * class OrderPlaced extends ShouldBroadcastAfterCommit { broadcastOn() { return ['orders'] } }
 * ```
 */
export abstract class ShouldBroadcastAfterCommit extends ShouldBroadcast {}

function serialize(value: unknown, depth = 0): unknown {
  if (depth > 32) throw new Error('The broadcast payload nests more than 32 levels deep (a cycle?); give the event a broadcastWith().')
  // toJSON first, as JSON.stringify does: a model (of any copy of the framework) or a DTO decides what it exposes.
  if (value instanceof Model) return value.toJSON()
  if (value && typeof (value as { toJSON?: unknown }).toJSON === 'function') return serialize((value as { toJSON(): unknown }).toJSON(), depth + 1)
  if (Array.isArray(value)) return value.map((item) => serialize(item, depth + 1))
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, serialize(v, depth + 1)]))
  return value
}

/**
 * The channel names an event broadcasts on.
 *
 * @example
 * ```ts
 * channelNames(event) // ['private-orders.1']
 * ```
 */
export function channelNames(event: ShouldBroadcast): string[] {
  const on = event.broadcastOn()
  return (Array.isArray(on) ? on : [on]).map((c) => (typeof c === 'string' ? c : c.name))
}
