import { isStandard, record } from '../../state/decorators.ts'

const isolated = new WeakSet<Function>()
const asyncMethods = new WeakMap<Function, Set<string>>()

/**
 * A component whose requests always go alone: never bundled with other
 * components' updates in one request, so a slow update of this one holds
 * up no other (a class decorator). Subclasses inherit it.
 *
 * @example
 * ```ts
 * @isolate()
 * class Revenue extends Component {
 *   total = 0
 * }
 * ```
 */
export function isolate() {
  return (...args: any[]): any => {
    // Both decorator flavours pass the class first; the standard one adds a context.
    if (isStandard(args) && args[1].kind !== 'class') throw new TypeError('@isolate() decorates a component class.')
    isolated.add(args[0] as Function)
  }
}

/**
 * An action that runs in its own request, in parallel with others: not
 * queued behind the component's request in flight, and never bundled.
 * Meant for work whose result does not change what the page shows
 * (logging, analytics, data fetched for JavaScript): two parallel requests
 * start from the same state, so state they both change can be lost.
 *
 * @example
 * ```ts
 * class Post extends Component {
 *   @async() async trackView() { await Views.record(this.postId) }
 * }
 * ```
 */
export function async() {
  return (...args: any[]): any => {
    record(args, (Class, name) => {
      const methods = asyncMethods.get(Class) ?? new Set<string>()
      asyncMethods.set(Class, methods.add(name))
    })
  }
}

/** The class chain, the class itself first. */
function chain(Class: Function): Function[] {
  const out: Function[] = []
  for (let current: Function | null = Class; current && current !== Function.prototype; current = Object.getPrototypeOf(current) as Function | null)
    out.push(current)
  return out
}

/**
 * True for a class (or a parent of it) marked `@isolate()`.
 *
 * @example
 * ```ts
 * isIsolated(Revenue) // true
 * ```
 */
export function isIsolated(Class: Function): boolean {
  return chain(Class).some((current) => isolated.has(current))
}

/**
 * The `@async()` methods of a class and its parents.
 *
 * @example
 * ```ts
 * asyncMethodsOf(Post) // ['trackView']
 * ```
 */
export function asyncMethodsOf(Class: Function): string[] {
  return [...new Set(chain(Class).flatMap((current) => [...(asyncMethods.get(current) ?? [])]))]
}
