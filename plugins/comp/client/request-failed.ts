/**
 * A request that failed in a way already shown to the user (the overlay, a
 * reload notice): the component stays usable and the caller's promise
 * resolves with nothing.
 *
 * @example
 * ```ts
 * throw new RequestFailed('HTTP 500')
 * ```
 */
export class RequestFailed extends Error {}
