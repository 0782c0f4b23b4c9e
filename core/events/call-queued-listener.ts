import { currentApp } from '../application/current-app.ts'
import { Job } from '../queue/job.ts'

/**
 * The job that runs a queued listener: it carries the listener's and the
 * event's class names, the class the listener was listened on (`'*'` for
 * every event) and the event's data. The worker finds both classes among
 * the queued listeners its own dispatcher was given with `listen()` (from
 * config/events.ts or a plugin's boot, which every process runs).
 *
 * @example
 * ```ts
 * await queue.push(new CallQueuedListener('SendShipmentEmail', 'OrderShipped', { order }, 'OrderShipped'))
 * ```
 */
export class CallQueuedListener extends Job {
  constructor(
    public listener: string,
    public event: string,
    public data: Record<string, unknown>,
    /** The class the listener was listened on, when not the event's own: the event is rebuilt as it when its own class is not known. */
    public on: string | null = null,
  ) {
    super()
  }

  async handle(): Promise<void> {
    const app = currentApp()
    const { Listener, EventClass } = app.service('events').queuedListener(this.listener, this.event, this.on)
    const event = Object.assign(Object.create(EventClass.prototype), this.data)
    await app.container.resolve(Listener).handle(event)
  }
}
