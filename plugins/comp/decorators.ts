import { ownMeta } from './class-meta.ts'

type Context = { kind: string; name: string | symbol; addInitializer(fn: (this: unknown) => void): void }

/** True for a TC39 (standard) decorator call, whose second argument is a context object. */
function isStandard(args: unknown[]): args is [unknown, Context] {
  return typeof args[1] === 'object' && args[1] !== null && 'kind' in (args[1] as object)
}

/**
 * Records a member on its class, for both decorator flavours: TypeScript's
 * `experimentalDecorators` (target, key, descriptor) and the standard one
 * (value, context).
 */
export function record(args: unknown[], apply: (Class: Function, name: string) => void): void {
  if (isStandard(args)) {
    const context = args[1]
    context.addInitializer(function (this: unknown) {
      const target = this as { constructor: Function }
      apply(typeof this === 'function' ? (this as Function) : target.constructor, String(context.name))
    })
    return
  }
  const [target, key] = args as [{ constructor: Function }, string | symbol]
  apply(target.constructor, String(key))
}

/**
 * Listens for an event: from `this.dispatch(...)` in any component on the
 * page, or `$dispatch(...)` in the browser. The method receives the event's
 * data.
 *
 * @example
 * ```ts
 * class Cart extends Component {
 *   count = 0
 *   @on('product-added') refresh({ quantity }: { quantity: number }) { this.count += quantity }
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

/**
 * A property the browser may read but never change: an update to it is
 * refused with 403 (use it for ids a method trusts).
 *
 * @example
 * ```ts
 * class EditPost extends Component {
 *   @locked() postId = 0
 * }
 * ```
 */
export function locked() {
  return (...args: any[]): any => {
    record(args, (Class, name) => void ownMeta(Class).locked.add(name))
  }
}

/**
 * A getter worked out at most once per request and never put in the
 * snapshot: views read it like a property.
 *
 * @example
 * ```ts
 * class Todos extends Component {
 *   @computed() get remaining() { return this.items.filter((item) => !item.done).length }
 * }
 * ```
 */
export function computed() {
  return (...args: any[]): any => {
    if (isStandard(args)) {
      const [getter, context] = args as [() => unknown, Context]
      context.addInitializer(function (this: unknown) {
        ownMeta((this as { constructor: Function }).constructor).computed.add(String(context.name))
      })
      return memoised(getter, String(context.name))
    }
    const [target, key, descriptor] = args as [{ constructor: Function }, string, PropertyDescriptor]
    ownMeta(target.constructor).computed.add(key)
    if (!descriptor?.get) throw new TypeError(`@computed() goes on a getter: make ${key} "get ${key}()".`)
    return { ...descriptor, get: memoised(descriptor.get, key) }
  }
}

const memo = new WeakMap<object, Map<string, unknown>>()

function memoised(getter: () => unknown, name: string): () => unknown {
  return function (this: object) {
    let values = memo.get(this)
    if (!values) memo.set(this, (values = new Map()))
    if (!values.has(name)) values.set(name, getter.call(this))
    return values.get(name)
  }
}

/**
 * Forgets memoised computed values of a component, so the next read works
 * them out again (after an action changed what they depend on). @internal
 * used by `Component.forgetComputed`.
 *
 * @example
 * ```ts
 * forgetComputed(component, 'remaining')
 * ```
 */
export function forgetComputed(component: object, name?: string): void {
  if (name === undefined) memo.delete(component)
  else memo.get(component)?.delete(name)
}

/**
 * A client-side action declared on the server: the method returns
 * JavaScript that runs in the browser as `$wire.$js.<name>()`, with no round
 * trip. (Not available with `csp_safe`, which forbids evaluating code.)
 *
 * @example
 * ```ts
 * class Search extends Component {
 *   query = ''
 *   @js() clear() { return "$wire.query = ''" }
 * }
 * ```
 */
export function js() {
  return (...args: any[]): any => {
    record(args, (Class, name) => void ownMeta(Class).js.add(name))
  }
}
