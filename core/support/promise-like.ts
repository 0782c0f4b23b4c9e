/**
 * True for a promise (or any thenable): what a hook, a guard or a helper
 * returned that must be awaited. Code on every request tests with it before
 * awaiting, since each promise costs an AsyncLocalStorage hook on Node 20.
 *
 * @example
 * ```ts
 * const pending = component.hydrate?.()
 * if (isPromiseLike(pending)) await pending
 * ```
 */
export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function'
}
