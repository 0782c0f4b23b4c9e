import { randomUUID } from 'node:crypto'
import { currentApp, Job } from '../../core/index.ts'

/**
 * The queued broadcast: channels, name and payload captured as plain JSON
 * when the event was dispatched, so later changes to the models do not leak in.
 *
 * @example
 * ```ts
 * await BroadcastEvent.dispatch(['orders'], 'OrderShipped', { id: 1 }, null, 'log')
 * ```
 */
export class BroadcastEvent extends Job {
  static tries = 3
  static backoff = [1000, 5000]

  constructor(
    public channels: string[],
    public event: string,
    public payload: Record<string, unknown>,
    public socket: string | null,
    public connection: string | null,
    /** The broadcast's id, made once here and kept across retries, so receivers drop a second copy. */
    public id: string | null = randomUUID(),
  ) {
    super()
  }

  async handle(): Promise<void> {
    await currentApp()
      .service('broadcast')
      .send(
        { channels: this.channels, event: this.event, payload: this.payload, socket: this.socket ?? undefined, id: this.id ?? undefined },
        this.connection ?? undefined,
      )
  }
}
