import { isPromiseLike } from '../../../core/index.ts'
import { ValidationStop, type Component } from '../component.ts'

/**
 * Runs one step of a component (`boot`, `mount`, `hydrate`, `booted`, an
 * update of a property, an action) under its `exception(error,
 * stopPropagation)` hook, as Livewire's: an error the step throws goes to
 * the hook first, and when the hook calls `stopPropagation()` the request
 * goes on as if the step had returned nothing. `validate()`'s stop is the
 * lifecycle's own flow, not an error: it never reaches the hook. A promise
 * only when the step (or the hook) returned one.
 *
 * @example
 * ```ts
 * const done = guarded(component, () => component.hydrate?.())
 * if (isPromiseLike(done)) await done
 * ```
 */
export function guarded(component: Component, step: () => unknown): unknown {
  if (typeof component.exception !== 'function') return step()
  let result: unknown
  try {
    result = step()
  } catch (error) {
    return handle(component, error)
  }
  return isPromiseLike(result) ? Promise.resolve(result).catch((error: unknown) => handle(component, error)) : result
}

/** Gives the error to the component's hook; rethrows it unless the hook stopped it. */
function handle(component: Component, error: unknown): unknown {
  if (error instanceof ValidationStop) throw error
  let stopped = false
  const heard = component.exception!(error, () => void (stopped = true))
  const settle = (): undefined => {
    if (!stopped) throw error
    return undefined
  }
  return isPromiseLike(heard) ? Promise.resolve(heard).then(settle) : settle()
}
