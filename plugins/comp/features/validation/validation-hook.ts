import type { ComponentHook } from '../../lifecycle/component-hook.ts'

/**
 * Validation: the messages of the last `validate()` travel in the snapshot
 * (`errors`), come back on the next update, and are answered as the
 * `errors` effect (`$errors` in the browser). `validate()`,
 * `validateOnly()`, `addError()` and `resetErrorBag()` are the component's
 * own methods.
 *
 * @example
 * ```ts
 * const features = [validation, ...]
 * ```
 */
export const validation: ComponentHook = {
  name: 'validation',
  hydrate(c, memo) {
    const errors = memo.errors ?? {}
    // A copy only when there is something to copy: most snapshots carry no messages.
    c.run.errors = Object.keys(errors).length === 0 ? {} : structuredClone(errors)
  },
}
