import { ownMeta } from '../../class-meta.ts'
import { record } from '../../decorators.ts'

/**
 * Listens for an event: from `this.dispatch(...)` in any component on the
 * page, or `$dispatch(...)` in the browser. The method's parameters are
 * filled by name from the event's data; a destructured parameter (or a
 * single one the data has no key for) gets the whole data object
 * (`listener-params.ts`).
 *
 * @example
 * ```ts
 * class Cart extends Component {
 *   count = 0
 *   @on('product-added') refresh(quantity: number) { this.count += quantity }
 *   @on('cart-cleared') clear({ reason }: { reason: string }) { this.count = 0 }
 * }
 * ```
 */
export function on(event: string) {
  if (!/^[\w.:-]{1,100}$/.test(event)) throw new TypeError(`"${event}" is not a valid event name: letters, digits, ".", ":", "-" and "_".`)
  return (...args: any[]): any => {
    record(args, (Class, name) => {
      const listeners = ownMeta(Class).listeners
      const methods = listeners.get(event) ?? []
      if (!methods.includes(name)) listeners.set(event, [...methods, name])
    })
  }
}
