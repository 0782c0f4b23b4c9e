import { defineChannels } from 'kiln-framework/broadcasting'
import { Order } from '../app/models/order.ts'
import type { User } from '../app/models/user.ts'

/** Who may join which private and presence channels. */
export default defineChannels((Broadcast) => {
  // The user's own channel: new PrivateChannel(user) → private-app.models.User.{id}
  Broadcast.channel('app.models.User.{id}', (user: User, id: string) => String(user.id) === id)

  // Bound to a model: the order is loaded by key; a missing order is refused.
  Broadcast.channel('orders.{order}', (user: User, order: Order) => user.id === order.user_id, { bind: { order: Order } })

  // Presence: the returned object is the member's info others see.
  Broadcast.channel('chat', (user: User) => ({ id: user.id, name: user.name }))
})
