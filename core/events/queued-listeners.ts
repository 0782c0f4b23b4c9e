import { UnknownJobError } from '../queue/job-registry.ts'
import { KilnError } from '../support/errors.ts'

/** An event class (typed loosely here: this module stays apart from event.ts). */
type EventConstructor = abstract new (...args: any[]) => object

/** A listener class that runs on the queue (`static queued = true`). */
export type QueuedListenerClass = (new (...args: any[]) => { handle(event: any): unknown }) & { queued?: boolean; queue?: string; connection?: string }

/**
 * The queued listener classes of one app, and the event classes they
 * listen on, by name: what a worker process rebuilds a `CallQueuedListener`
 * job from. Filled when a listener is listened to (`events.listen`,
 * config/events.ts), so a worker that booted the app knows them before any
 * dispatch.
 *
 * @example
 * ```ts
 * const queued = new QueuedListeners(Event)
 * queued.add(OrderShipped, SendShipmentEmail)
 * queued.find('SendShipmentEmail', 'OrderShipped', null) // { Listener, EventClass }
 * ```
 */
export class QueuedListeners {
  private readonly listeners = new Map<string, QueuedListenerClass>()
  private readonly events = new Map<string, EventConstructor>()

  /** `everyEvent`: the class an event is rebuilt as for a `'*'` listener when its own class is unknown (the kernel's `Event`). */
  constructor(private readonly everyEvent: EventConstructor) {}

  /** True for a listener class that runs on the queue. @example `QueuedListeners.isQueued(SendShipmentEmail) // true` */
  static isQueued(listener: unknown): listener is QueuedListenerClass {
    return (
      typeof listener === 'function' && (listener as { queued?: unknown }).queued === true && /^class[\s{]/.test(Function.prototype.toString.call(listener))
    )
  }

  /**
   * Records a queued listener and the class it listens on. Two listener
   * classes of one name are refused (`E_LISTENER_NAME_TAKEN`): the job
   * names the listener by its class name only.
   *
   * @example
   * ```ts
   * queued.add(OrderShipped, SendShipmentEmail)
   * ```
   */
  add(event: EventConstructor | string, listener: QueuedListenerClass): void {
    const known = this.listeners.get(listener.name)
    if (known && known !== listener)
      throw new KilnError(`Two queued listener classes are named "${listener.name}", so a worker could not tell which one a queued call is.`, {
        code: 'E_LISTENER_NAME_TAKEN',
        hint: 'Rename one of them: a queued listener travels by its class name.',
      })
    this.listeners.set(listener.name, listener)
    if (typeof event === 'function') this.addEvent(event)
  }

  /** Records an event class by name (a dispatched subclass of a listened class). @example `queued.addEvent(OrderShipped)` */
  addEvent(event: EventConstructor): void {
    if (!this.events.has(event.name)) this.events.set(event.name, event)
  }

  /**
   * The listener and event classes of a queued call. An event class this
   * process never heard of is rebuilt as the class the listener was
   * listened on (`Event` for `'*'`). Throws {@link UnknownJobError} for a
   * listener it does not know.
   *
   * @example
   * ```ts
   * const { Listener, EventClass } = queued.find('SendShipmentEmail', 'OrderShipped', null)
   * ```
   */
  find(listener: string, event: string, on: string | null): { Listener: QueuedListenerClass; EventClass: EventConstructor } {
    const Listener = this.listeners.get(listener)
    const EventClass = this.events.get(event) ?? (on === '*' ? this.everyEvent : on ? this.events.get(on) : undefined)
    if (Listener && EventClass) return { Listener, EventClass }
    throw new UnknownJobError(
      listener,
      `Unknown queued listener "${listener}" for ${event}: this process was not given ${Listener ? `the event class ${event}` : 'that listener'}.`,
      "Listen to it where every process runs it: config/events.ts `listen`, or Event.listen() in a plugin's boot() (not in a route or a handler, which a worker never runs).",
    )
  }
}
