import { currentApp } from '../application/current-app.ts'
import type { EventDispatcher } from './event-dispatcher.ts'
import type { EventFake } from './event-fake.ts'

/**
 * The base of application events. Listeners subscribe to the class;
 * `static afterCommit = true` holds dispatch until the surrounding
 * transaction commits (and drops it on rollback).
 *
 * @example
 * ```ts
 * class OrderShipped extends Event {
 *   constructor(public order: Order) { super() }
 * }
 * Event.listen(OrderShipped, (e) => notify(e.order))
 * await OrderShipped.dispatch(order)
 * ```
 */
export class Event {
  /** Dispatch only after the surrounding DB transaction commits. */
  static afterCommit = false

  /**
   * Constructs the event and dispatches it; resolves after the in-process
   * listeners ran (queued listeners are on the queue by then).
   *
   * @example
   * ```ts
   * await UserRegistered.dispatch(user)
   * ```
   */
  static dispatch<T extends Event, A extends unknown[]>(this: new (...args: A) => T, ...args: A): Promise<void> {
    return dispatcher().dispatch(new this(...args))
  }

  /**
   * True when a dispatch of this class would reach a listener (its own, a
   * parent's or `'*'`) or a fake, so that hot paths can skip events nobody
   * observes.
   *
   * @example
   * ```ts
   * if (TokenAuthenticated.isObserved()) await TokenAuthenticated.dispatch(token)
   * ```
   */
  static isObserved(this: EventClass): boolean {
    return dispatcher().isObserved(this)
  }

  /**
   * Listens to an event class (or `'*'`).
   *
   * @example
   * ```ts
   * Event.listen(OrderShipped, SendShipmentEmail)
   * ```
   */
  static listen(event: EventKey, listener: Listener): void {
    dispatcher().listen(event, listener)
  }

  /**
   * Swaps dispatching for a recorder on the app in scope: events (and their
   * broadcasts) are swallowed; assert on what was dispatched.
   *
   * @example
   * ```ts
   * const fake = Event.fake()
   * await OrderShipped.dispatch(order)
   * fake.assertDispatched(OrderShipped)
   * ```
   */
  static fake(only?: EventClass[]): EventFake {
    return dispatcher().fake(only)
  }

  /** Ends `fake()`. @example `Event.restore()` */
  static restore(): void {
    dispatcher().restore()
  }
}

/** An event class. */
export type EventClass<E extends Event = Event> = abstract new (...args: any[]) => E

/**
 * What listeners subscribe to: a class, `'*'` for every event, or a model
 * event by name: `'model.created: Post'` (the model's morph name).
 */
export type EventKey = EventClass | '*' | `model.${string}: ${string}`

/** A function, or a listener class with `handle(event)` (resolved from the container; `static queued = true` runs it on the queue). */
export type Listener<E extends Event = any> = ((event: E) => unknown) | (new (...args: any[]) => { handle(event: E): unknown })

/**
 * Dispatches an event instance.
 *
 * @example
 * ```ts
 * await event(new OrderShipped(order))
 * ```
 */
export function event(instance: Event): Promise<void> {
  return dispatcher().dispatch(instance)
}

function dispatcher(): EventDispatcher {
  return currentApp().service('events')
}
