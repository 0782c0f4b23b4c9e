import { AssertionError } from 'node:assert'
import type { BroadcastMessage } from './broadcaster.ts'

/**
 * What `Broadcast.fake()` returns: every broadcast sent while faked, and
 * assertions on them.
 *
 * @example
 * ```ts
 * const fake = Broadcast.fake()
 * await OrderShipped.dispatch(order)
 * await flushBroadcasts()
 * fake.assertBroadcastOn('OrderShipped', 'private-orders.1')
 * ```
 */
export class BroadcastFake {
  readonly sent: BroadcastMessage[] = []

  /** Broadcasts of an event name. @example `fake.broadcasts('OrderShipped')` */
  broadcasts(event: string): BroadcastMessage[] {
    return this.sent.filter((m) => m.event === event)
  }

  assertBroadcast(event: string): void {
    if (this.broadcasts(event).length === 0) throw new AssertionError({ message: `Expected ${event} to be broadcast; broadcast: ${this.names()}.` })
  }

  assertBroadcastOn(event: string, channel: string): void {
    if (!this.broadcasts(event).some((m) => m.channels.includes(channel))) {
      throw new AssertionError({
        message: `Expected ${event} on ${channel}; it went on: ${
          this.broadcasts(event)
            .flatMap((m) => m.channels)
            .join(', ') || 'nothing'
        }.`,
      })
    }
  }

  assertBroadcastCount(count: number): void {
    if (this.sent.length !== count)
      throw new AssertionError({ message: `Expected ${count} broadcasts, got ${this.sent.length}.`, actual: this.sent.length, expected: count })
  }

  assertNotBroadcast(event: string): void {
    if (this.broadcasts(event).length > 0) throw new AssertionError({ message: `Did not expect ${event} to be broadcast.` })
  }

  private names(): string {
    return this.sent.map((m) => m.event).join(', ') || 'nothing'
  }
}
