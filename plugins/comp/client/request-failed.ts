/**
 * A request that failed in a way already shown to the user (the overlay, a
 * reload notice): the component stays usable and the caller's promise
 * resolves with nothing. It keeps the answer's status and body (0 and ''
 * for a network error).
 *
 * @example
 * ```ts
 * throw new RequestFailed('HTTP 500', 500, text)
 * ```
 */
export class RequestFailed extends Error {
  constructor(
    message: string,
    readonly status = 0,
    readonly body = '',
  ) {
    super(message)
  }
}
