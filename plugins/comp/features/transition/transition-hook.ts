import type { ComponentHook } from '../../lifecycle/component-hook.ts'
import { chosenTransition, decoratedTransition, type TransitionOptions } from './transition.ts'

/**
 * View transitions: an update's `transition` effect tells the browser how
 * to play the view transition of its `wire:transition` elements, from
 * `this.transition()` / `this.skipTransition()` in an action, else from the
 * `@transition()` of the last method called. Nothing is sent when neither
 * says anything (the browser plays an untyped transition).
 *
 * @example
 * ```ts
 * const features = [transitions, ...]
 * ```
 */
export const transitions: ComponentHook = {
  name: 'transition',
  dehydrate(c) {
    if (!c.request) return
    let options: TransitionOptions | undefined = chosenTransition(c.run)
    if (!options) for (const { method } of c.request.payload.calls) options = decoratedTransition(c.Class, method) ?? options
    if (options?.skip) c.effects.transition = { skip: true }
    else if (options?.type) c.effects.transition = { type: String(options.type) }
  },
}
