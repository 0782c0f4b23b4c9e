import { PrivateChannel, ShouldBroadcast } from 'kiln-framework/broadcasting'
import type { Order } from '../models/order.ts'

/** Broadcast to the order's channel when it ships: `await OrderShipped.dispatch(order)`. */
export class OrderShipped extends ShouldBroadcast {
  constructor(public order: Order) {
    super()
  }

  broadcastOn() {
    return [new PrivateChannel(`orders.${this.order.id}`)]
  }
}
