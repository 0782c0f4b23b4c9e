import { ownMeta } from '../../state/class-meta.ts'
import { isStandard, type Context } from '../../state/decorators.ts'
import { checkedOptions, declareStored, type ComputedOptions } from './stored-computed.ts'

export type { ComputedOptions } from './stored-computed.ts'

/**
 * A getter worked out at most once per request and never put in the
 * snapshot: views read it like a property. With `persist: true` its value
 * is kept in the app's cache store for this component instance across
 * requests; with `cache: true`, for every instance of every user (under
 * `key`), both for `seconds` (3600 by default).
 *
 * @example
 * ```ts
 * class Todos extends Component {
 *   @computed() get remaining() { return this.items.filter((item) => !item.done).length }
 *   @computed({ cache: true, key: 'todos.total', seconds: 60 }) get total() { return countAllTodos() }
 * }
 * ```
 */
export function computed(options: ComputedOptions = {}) {
  const stored = checkedOptions(options)
  return (...args: any[]): any => {
    if (isStandard(args)) {
      const [getter, context] = args as [() => unknown, Context]
      context.addInitializer(function (this: unknown) {
        const Class = (this as { constructor: Function }).constructor
        ownMeta(Class).computed.add(String(context.name))
        if (stored) declareStored(Class, String(context.name), stored)
      })
      return memoised(getter, String(context.name))
    }
    const [target, key, descriptor] = args as [{ constructor: Function }, string, PropertyDescriptor]
    ownMeta(target.constructor).computed.add(key)
    if (!descriptor?.get) throw new TypeError(`@computed() goes on a getter: make ${key} "get ${key}()".`)
    if (stored) declareStored(target.constructor, key, stored)
    return { ...descriptor, get: memoised(descriptor.get, key) }
  }
}

/** One component's computed values this request, and which of them were worked out (not loaded) or forgotten. */
interface Memo {
  values: Map<string, unknown>
  /** Worked out by the getter this request: a persisted or cached one is written back to the store. */
  fresh: Set<string>
  /** Forgotten this request (`forgetComputed`): a persisted or cached one not worked out again is removed from the store. */
  forgotten: Set<string>
  /** Every name forgotten at once (`forgetComputed()`). */
  forgotAll: boolean
}

const memo = new WeakMap<object, Memo>()

function memoOf(component: object): Memo {
  let found = memo.get(component)
  if (!found) memo.set(component, (found = { values: new Map(), fresh: new Set(), forgotten: new Set(), forgotAll: false }))
  return found
}

function memoised(getter: () => unknown, name: string): () => unknown {
  return function (this: object) {
    const { values, fresh } = memoOf(this)
    if (!values.has(name)) {
      values.set(name, getter.call(this))
      fresh.add(name)
    }
    return values.get(name)
  }
}

/**
 * Forgets memoised computed values of a component, so the next read works
 * them out again (after an action changed what they depend on); a
 * persisted or cached one is removed from the store at the end of the
 * request unless it was worked out again. @internal used by
 * `Component.forgetComputed`.
 *
 * @example
 * ```ts
 * forgetComputed(component, 'remaining')
 * ```
 */
export function forgetComputed(component: object, name?: string): void {
  const found = memoOf(component)
  if (name === undefined) {
    found.values.clear()
    found.fresh.clear()
    found.forgotAll = true
  } else {
    found.values.delete(name)
    found.fresh.delete(name)
    found.forgotten.add(name)
  }
}

/**
 * Sets a computed value loaded from the store, as if it had been worked out this request (the getter does not run). @internal
 *
 * @example
 * ```ts
 * primeComputed(component, 'total', 42)
 * ```
 */
export function primeComputed(component: object, name: string, value: unknown): void {
  memoOf(component).values.set(name, value)
}

/**
 * What became of a computed value this request: `fresh` (worked out, with its value), `forgotten` (and not worked out
 * again), or `unchanged`. @internal
 *
 * @example
 * ```ts
 * if (computedState(component, 'total').state === 'fresh') await save()
 * ```
 */
export function computedState(component: object, name: string): { state: 'fresh'; value: unknown } | { state: 'forgotten' | 'unchanged' } {
  const found = memo.get(component)
  if (!found) return { state: 'unchanged' }
  if (found.fresh.has(name)) return { state: 'fresh', value: found.values.get(name) }
  return found.forgotAll || found.forgotten.has(name) ? { state: 'forgotten' } : { state: 'unchanged' }
}
