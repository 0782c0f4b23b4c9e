import { KilnError } from '../../../../core/index.ts'
import type { Component } from '../../component.ts'

/**
 * What a component's `with()` hook adds to its view's data: called on every
 * render (the component's view, its `static template`, its islands), after
 * `rendering()`, sync or async. Nothing when the component has no `with()`.
 * Its keys win over public properties and computed properties of the same
 * name: the view sees what `with()` says.
 *
 * @example
 * ```ts
 * class Todos extends Component {
 *   todos: { done: boolean }[] = []
 *   with() {
 *     return { remaining: this.todos.filter((todo) => !todo.done).length }
 *   }
 * }
 * await withData(new Todos()) // { remaining: 0 }
 * ```
 */
export async function withData(component: Component): Promise<Record<string, unknown>> {
  if (typeof component.with !== 'function') return {}
  const extra: unknown = await component.with()
  if (extra === undefined || extra === null) return {}
  if (typeof extra !== 'object' || Array.isArray(extra)) {
    throw new KilnError(`${component.constructor.name}.with() must return an object of view data, got ${Array.isArray(extra) ? 'an array' : typeof extra}.`, {
      code: 'E_COMP_WITH',
    })
  }
  return extra as Record<string, unknown>
}
