import { randomUUID } from 'node:crypto'
import { currentApp, KilnError, Model } from '../../core/index.ts'
import { BroadcastEvent } from './broadcast-event-job.ts'
import { Channel, PrivateChannel } from './channels.ts'

/**
 * A notification. `via()` names its channels; `'broadcast'` sends
 * `toBroadcast()` as a `BroadcastNotificationCreated` event to the
 * notifiable's private channel (or its `routeNotificationForBroadcast()`).
 *
 * @example
 * ```ts
 * class InvoicePaid extends Notification {
 *   constructor(public invoice: Invoice) { super() }
 *   via() { return ['broadcast'] }
 *   toBroadcast() { return { invoice_id: this.invoice.id, amount: this.invoice.amount } }
 * }
 * await user.notify(new InvoicePaid(invoice))
 * ```
 */
export abstract class Notification {
  /** A unique id, sent with the broadcast. */
  id: string = randomUUID()

  abstract via(notifiable: unknown): string[]

  /** The broadcast payload. @example `toBroadcast(user) { return { message: 'Hi' } }` */
  toBroadcast?(notifiable: unknown): Record<string, unknown>
}

type ModelConstructor = new (...args: any[]) => Model

/**
 * The mixin for models that receive notifications.
 *
 * @example
 * ```ts
 * class User extends Notifiable(Authenticatable(Model)) { static table = 'users' }
 * await user.notify(new InvoicePaid(invoice))
 * ```
 */
export function Notifiable<TBase extends ModelConstructor>(Base: TBase) {
  class NotifiableModel extends Base {
    /** Sends a notification through each of its `via()` channels. @example `await user.notify(n)` */
    async notify(notification: Notification): Promise<void> {
      for (const via of notification.via(this)) {
        if (via !== 'broadcast') throw new KilnError(`The "${via}" notification channel is not available; Kiln ships "broadcast".`)
        await sendBroadcastNotification(this, notification)
      }
    }

    /** Where broadcast notifications go: the model's own private channel. @example `routeNotificationForBroadcast() { return [new PrivateChannel('team.1')] }` */
    routeNotificationForBroadcast(): Array<Channel | string> {
      return [new PrivateChannel(this as never)]
    }
  }
  return NotifiableModel
}

async function sendBroadcastNotification(notifiable: { routeNotificationForBroadcast(): Array<Channel | string> }, notification: Notification): Promise<void> {
  if (!notification.toBroadcast) throw new KilnError(`${notification.constructor.name} is sent via "broadcast" but has no toBroadcast().`)
  const channels = notifiable.routeNotificationForBroadcast().map((c) => (typeof c === 'string' ? c : c.name))
  const payload = { ...JSON.parse(JSON.stringify(notification.toBroadcast(notifiable))), id: notification.id, type: notification.constructor.name }
  await currentApp()
    .service('queue')
    .push(new BroadcastEvent(channels, 'BroadcastNotificationCreated', payload, null, null))
}
