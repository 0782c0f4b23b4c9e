import { record } from '../../state/decorators.ts'

const jsonMethods = new WeakMap<Function, Set<string>>()

/**
 * An action whose return value goes back to JavaScript, as Livewire's
 * `#[Json]`: `await $wire.search('kiln')` resolves with what `search()`
 * returned, which must be JSON (plain objects, arrays, strings, finite
 * numbers, booleans, null, or what has a `toJSON()`, as a model or a date).
 * The component does not render again for it, and the call runs in a
 * request of its own, beside any other. When it fails validation the
 * promise rejects with `{ status: 422, errors }`, and the component's
 * `$errors` stay as they were.
 *
 * @example
 * ```ts
 * class Search extends Component {
 *   titles = ['Kiln', 'Clay']
 *   @json() find(query: string) { return this.titles.filter((title) => title.includes(query)) }
 * }
 * ```
 */
export function json() {
  return (...args: any[]): any => {
    record(args, (Class, name) => {
      const methods = jsonMethods.get(Class) ?? new Set<string>()
      jsonMethods.set(Class, methods.add(name))
    })
  }
}

/**
 * The `@json()` actions of a class and its parents.
 *
 * @example
 * ```ts
 * jsonMethodsOf(Search) // Set { 'find' }
 * ```
 */
export function jsonMethodsOf(Class: Function): ReadonlySet<string> {
  const out = new Set<string>()
  for (let current: Function | null = Class; current && current !== Function.prototype; current = Object.getPrototypeOf(current) as Function | null)
    for (const name of jsonMethods.get(current) ?? []) out.add(name)
  return out
}
