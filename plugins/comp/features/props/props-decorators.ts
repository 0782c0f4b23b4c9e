import { record } from '../../state/decorators.ts'

const reactiveProps = new WeakMap<Function, Set<string>>()
const modelableProps = new WeakMap<Function, string>()

/**
 * A property that follows the value its parent passes in: when the parent
 * renders again with a different value, this component gets the new value
 * and renders again in the same request. The component itself cannot
 * change it: an update from the browser is refused with 403, and changing
 * it in an action is an error (`E_COMP_REACTIVE_MUTATED`).
 *
 * @example
 * ```ts
 * class TodoCount extends Component {
 *   @reactive() todos: string[] = []
 * }
 * // in the parent's view: @comp('todo-count', todos=todos)
 * ```
 */
export function reactive() {
  return (...args: any[]): any => {
    record(args, (Class, name) => {
      const names = reactiveProps.get(Class) ?? new Set<string>()
      reactiveProps.set(Class, names.add(name))
    })
  }
}

/**
 * The property a parent binds with `wire:model` on this component's tag
 * (`@comp('todo-input', wire:model="title")`): it starts with the parent's
 * value, and changes to it in the browser change the parent's property.
 * One per component (a second one is ignored).
 *
 * @example
 * ```ts
 * class TodoInput extends Component {
 *   @modelable() value = ''
 * }
 * ```
 */
export function modelable() {
  return (...args: any[]): any => {
    record(args, (Class, name) => {
      if (!modelableProps.has(Class)) modelableProps.set(Class, name)
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
 * The `@reactive()` properties of a class and its parents.
 *
 * @example
 * ```ts
 * reactivePropsOf(TodoCount) // ['todos']
 * ```
 */
export function reactivePropsOf(Class: Function): readonly string[] {
  // Worked out once per class (decorators have all run by the time an instance exists); every update asks for it.
  let names = reactiveOfClass.get(Class)
  if (!names) reactiveOfClass.set(Class, (names = [...new Set(chain(Class).flatMap((current) => [...(reactiveProps.get(current) ?? [])]))]))
  return names
}

const reactiveOfClass = new WeakMap<Function, readonly string[]>()

/**
 * The `@modelable()` property of a class (its own, else its nearest parent's).
 *
 * @example
 * ```ts
 * modelableOf(TodoInput) // 'value'
 * ```
 */
export function modelableOf(Class: Function): string | undefined {
  for (const current of chain(Class)) {
    const name = modelableProps.get(current)
    if (name) return name
  }
  return undefined
}
