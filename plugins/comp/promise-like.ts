/**
 * True for a promise (or any thenable): what a hook returned that must be awaited.
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
