import type { ComponentRun } from '../../component-run.ts'
import { record } from '../../state/decorators.ts'

/** How an update's view transition plays: a `type` CSS can select on, or none at all (`skip`). */
export interface TransitionOptions {
  /** Matched in CSS by `:active-view-transition-type(<type>)` while the transition plays. */
  type?: string
  /** The update changes the page at once, with no transition. */
  skip?: boolean
}

const decorated = new WeakMap<Function, Map<string, TransitionOptions>>()
const chosen = new WeakMap<ComponentRun, TransitionOptions>()

/**
 * Sets how the view transition of the update calling this method plays
 * (for the `wire:transition` elements the update adds, removes or
 * changes): with a `type`, or skipped. `this.transition()` in the action
 * overrides it.
 *
 * @example
 * ```ts
 * class Wizard extends Component {
 *   step = 1
 *   @transition({ type: 'forward' }) next() { this.step++ }
 *   @transition({ type: 'backward' }) previous() { this.step-- }
 *   @transition({ skip: true }) restart() { this.step = 1 }
 * }
 * ```
 */
export function transition(options: TransitionOptions) {
  return (...args: any[]): any => {
    record(args, (Class, name) => {
      const methods = decorated.get(Class) ?? new Map<string, TransitionOptions>()
      decorated.set(Class, methods.set(name, options))
    })
  }
}

/**
 * The `@transition()` options of a method, looked up along the class chain
 * (a subclass's own declaration first).
 *
 * @example
 * ```ts
 * decoratedTransition(Wizard, 'next') // { type: 'forward' }
 * ```
 */
export function decoratedTransition(Class: Function, method: string): TransitionOptions | undefined {
  for (let current: Function | null = Class; current && current !== Function.prototype; current = Object.getPrototypeOf(current) as Function | null) {
    const options = decorated.get(current)?.get(method)
    if (options) return options
  }
  return undefined
}

/**
 * Keeps the transition an action chose for its update (`this.transition()`,
 * `this.skipTransition()`); the last call wins. @internal
 *
 * @example
 * ```ts
 * chooseTransition(runOf(this), { type: 'forward' })
 * ```
 */
export function chooseTransition(run: ComponentRun, options: TransitionOptions): void {
  chosen.set(run, options)
}

/**
 * What an action chose with `this.transition()` in this run, if anything. @internal
 *
 * @example
 * ```ts
 * chosenTransition(c.run) // { skip: true }
 * ```
 */
export function chosenTransition(run: ComponentRun): TransitionOptions | undefined {
  return chosen.get(run)
}
