import { currentApp } from '../application/current-app.ts'
import { Job } from '../queue/job.ts'
import { KilnError } from '../support/errors.ts'

const listenerClasses = new Map<string, new (...args: any[]) => { handle(event: unknown): unknown }>()
const eventClasses = new Map<string, new (...args: any[]) => object>()

/**
 * Makes a queued listener and its event known by name to worker processes
 * (dispatching registers them in the dispatching process).
 *
 * @example
 * ```ts
 * registerQueuedListener(SendShipmentEmail, OrderShipped)
 * ```
 */
export function registerQueuedListener(listener: new (...args: any[]) => { handle(event: any): unknown }, event: new (...args: any[]) => object): void {
  listenerClasses.set(listener.name, listener)
  eventClasses.set(event.name, event)
}

/**
 * The job that runs a queued listener: it carries the listener's and the
 * event's class names and the event's data.
 *
 * @example
 * ```ts
 * await queue.push(new CallQueuedListener('SendShipmentEmail', 'OrderShipped', { order }))
 * ```
 */
export class CallQueuedListener extends Job {
  constructor(
    public listener: string,
    public event: string,
    public data: Record<string, unknown>,
  ) {
    super()
  }

  async handle(): Promise<void> {
    const Listener = listenerClasses.get(this.listener)
    const EventClass = eventClasses.get(this.event)
    if (!Listener || !EventClass) throw new KilnError(`Unknown queued listener ${this.listener} for ${this.event}.`)
    const event = Object.assign(Object.create(EventClass.prototype), this.data)
    await currentApp().container.resolve(Listener).handle(event)
  }
}
