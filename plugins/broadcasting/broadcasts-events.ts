import { randomUUID } from 'node:crypto'
import { afterCommit, currentApp, Model } from '../../core/index.ts'
import { BroadcastEvent } from './broadcast-event-job.ts'
import { Channel, PrivateChannel } from './channels.ts'

/** The model changes that broadcast. */
export type BroadcastableModelEvent = 'created' | 'updated' | 'trashed' | 'restored' | 'deleted'

type ModelConstructor = new (...args: any[]) => Model

interface Broadcasting {
  broadcastOn(event: BroadcastableModelEvent): Array<Channel | string | Model> | Channel | string | Model
  broadcastAs?(event: BroadcastableModelEvent): string
  broadcastWith?(event: BroadcastableModelEvent): Record<string, unknown>
}

const EVENTS: BroadcastableModelEvent[] = ['created', 'updated', 'trashed', 'restored', 'deleted']

/**
 * Broadcasts a model's changes: mix it in before the base model and say
 * where each change goes. Returning the model itself means its own private
 * channel; `[]` keeps that change quiet.
 *
 * @example
 * ```ts
 * class Post extends BroadcastsEvents(Model) {
 *   static table = 'posts'
 *   broadcastOn(event: BroadcastableModelEvent) {
 *     return event === 'deleted' ? [] : [this, new Channel('posts')]
 *   }
 * }
 * // post.save() → 'PostUpdated' with { model: post.toDict() }
 * ```
 */
export function BroadcastsEvents<TBase extends ModelConstructor>(Base: TBase) {
  abstract class BroadcastingModel extends Base {
    /** Skip the queue: broadcast during the model event. */
    static broadcastsNow = false
    /** Queue only after the surrounding transaction commits. */
    static broadcastsAfterCommit = false

    abstract broadcastOn(event: BroadcastableModelEvent): Array<Channel | string | Model> | Channel | string | Model
  }
  // Listeners on the mixin class apply to every model that extends it.
  for (const event of EVENTS) (BroadcastingModel as unknown as typeof Model).on(event, (model) => broadcastModelEvent(model as Model & Broadcasting, event))
  return BroadcastingModel
}

/**
 * `BroadcastsEvents` that waits for the surrounding transaction to commit.
 *
 * @example
 * ```ts
 * class Order extends BroadcastsEventsAfterCommit(Model) { ... }
 * ```
 */
export function BroadcastsEventsAfterCommit<TBase extends ModelConstructor>(Base: TBase) {
  abstract class AfterCommit extends BroadcastsEvents(Base) {
    static override broadcastsAfterCommit = true
  }
  return AfterCommit
}

async function broadcastModelEvent(model: Model & Broadcasting, event: BroadcastableModelEvent): Promise<void> {
  if (event === 'deleted' && model.trashed()) return
  const on = model.broadcastOn(event)
  const channels = (Array.isArray(on) ? on : [on]).map((c) => (c instanceof Model ? new PrivateChannel(c as never).name : typeof c === 'string' ? c : c.name))
  if (channels.length === 0) return
  const name = model.broadcastAs?.(event) ?? `${model.constructor.name}${event[0]!.toUpperCase()}${event.slice(1)}`
  const payload = JSON.parse(JSON.stringify(model.broadcastWith?.(event) ?? { model: model.toDict() })) as Record<string, unknown>
  const app = currentApp()
  const Class = model.constructor as unknown as { broadcastsNow?: boolean; broadcastsAfterCommit?: boolean }
  if (Class.broadcastsNow) {
    await app.service('broadcast').send({ channels, event: name, payload, id: randomUUID() })
    return
  }
  const push = () => app.service('queue').push(new BroadcastEvent(channels, name, payload, null, null))
  if (Class.broadcastsAfterCommit) afterCommit(push)
  else await push()
}
