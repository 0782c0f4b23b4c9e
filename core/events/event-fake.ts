import { AssertionError } from 'node:assert'
import type { Event, EventClass } from './event.ts'

/**
 * What `Event.fake()` returns: the events dispatched while faked, and
 * assertions on them.
 *
 * @example
 * ```ts
 * fake.assertDispatched(OrderShipped, (e) => e.order.id === order.id)
 * fake.assertDispatchedTimes(OrderShipped, 1)
 * fake.assertNotDispatched(OrderCancelled)
 * ```
 */
export class EventFake {
  readonly dispatched: Event[] = []

  constructor(readonly only?: EventClass[]) {}

  /** True when this fake swallows the event. @internal */
  intercepts(event: Event): boolean {
    return !this.only || this.only.some((c) => event instanceof c)
  }

  /** The dispatched events of a class. @example `fake.events(OrderShipped)` */
  events<E extends Event>(Class: EventClass<E>, predicate?: (e: E) => boolean): E[] {
    return this.dispatched.filter((e): e is E => e instanceof Class && (!predicate || predicate(e)))
  }

  assertDispatched<E extends Event>(Class: EventClass<E>, predicate?: (e: E) => boolean): void {
    if (this.events(Class, predicate).length === 0)
      throw new AssertionError({ message: `Expected ${Class.name} to be dispatched${predicate ? ' matching the predicate' : ''}.` })
  }

  assertDispatchedTimes<E extends Event>(Class: EventClass<E>, times: number): void {
    const count = this.events(Class).length
    if (count !== times)
      throw new AssertionError({ message: `Expected ${Class.name} to be dispatched ${times} times, got ${count}.`, actual: count, expected: times })
  }

  assertNotDispatched<E extends Event>(Class: EventClass<E>, predicate?: (e: E) => boolean): void {
    if (this.events(Class, predicate).length > 0) throw new AssertionError({ message: `Did not expect ${Class.name} to be dispatched.` })
  }

  assertNothingDispatched(): void {
    if (this.dispatched.length > 0)
      throw new AssertionError({ message: `Expected no events, got ${this.dispatched.map((e) => e.constructor.name).join(', ')}.` })
  }
}
