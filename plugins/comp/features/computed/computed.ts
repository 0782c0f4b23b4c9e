import { ownMeta } from '../../state/class-meta.ts'
import { isStandard, type Context } from '../../state/decorators.ts'

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
