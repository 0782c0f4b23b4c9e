import { ownMeta } from '../../state/class-meta.ts'
import { record } from '../../state/decorators.ts'
import { checkEchoName, isEchoName } from './echo-names.ts'

/**
 * Listens for an event: from `this.dispatch(...)` in any component on the
 * page, or `$dispatch(...)` in the browser. The method's parameters are
 * filled by name from the event's data; a destructured parameter (or a
 * single one the data has no key for) gets the whole data object
 * (`listener-params.ts`).
 *
 * An echo listener hears a broadcast through the page's realtime client, in
 * Livewire's form: `echo:<channel>,<Event>`, `echo-private:…`,
 * `echo-presence:<channel>,<Event|here|joining|leaving>` and
 * `echo-notification:<channel>`, with `{property}` placeholders in the
 * channel filled from the component's state (`echo-names.ts`).
 *
 * @example
 * ```ts
 * class Cart extends Component {
 *   count = 0
 *   @on('product-added') refresh(quantity: number) { this.count += quantity }
 *   @on('cart-cleared') clear({ reason }: { reason: string }) { this.count = 0 }
 * }
 * class OrderStatus extends Component {
 *   orderId = 5
 *   status = 'paid'
 *   @on('echo-private:orders.{orderId},OrderShipped') shipped() { this.status = 'shipped' }
 * }
 * ```
 */
export function on(event: string) {
  if (isEchoName(event)) checkEchoName(event)
  else if (!/^[\w.:-]{1,100}$/.test(event)) throw new TypeError(`"${event}" is not a valid event name: letters, digits, ".", ":", "-" and "_".`)
  return (...args: any[]): any => {
    record(args, (Class, name) => {
      const listeners = ownMeta(Class).listeners
      const methods = listeners.get(event) ?? []
      if (!methods.includes(name)) listeners.set(event, [...methods, name])
    })
  }
}
