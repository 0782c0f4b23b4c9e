/**
 * An error that becomes an HTTP response with its status: JSON
 * `{ "message": ... }` for API clients, a small HTML page for browsers.
 *
 * @example
 * ```ts
 * throw new HttpException(403, 'This action is unauthorized.')
 * ```
 */
export class HttpException extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly options: { headers?: Record<string, string>; body?: Record<string, unknown> } = {},
  ) {
    super(message)
    this.name = 'HttpException'
  }

  /** Extra fields merged into the JSON body (for example `errors`). @example `e.body` */
  get body(): Record<string, unknown> | undefined {
    return this.options.body
  }
}

/**
 * Validation failed: 422 with `{ message, errors: { field: [messages] } }`.
 *
 * @example
 * ```ts
 * throw new ValidationException({ email: ['These credentials do not match our records.'] })
 * ```
 */
export class ValidationException extends HttpException {
  constructor(
    readonly errors: Record<string, string[]>,
    message?: string,
  ) {
    const first = Object.values(errors)[0]?.[0]
    super(422, message ?? first ?? 'The given data was invalid.', { body: { errors } })
    this.name = 'ValidationException'
  }
}

/**
 * Throws an {@link HttpException}: the shortest way out of a handler.
 *
 * @example
 * ```ts
 * if (!post) abort(404)
 * abort(403, 'Only the author can edit this post.')
 * ```
 */
export function abort(status: number, message?: string): never {
  throw new HttpException(status, message ?? defaultMessage(status))
}

const MESSAGES: Record<number, string> = {
  400: 'Bad request.',
  401: 'Unauthenticated.',
  403: 'This action is unauthorized.',
  404: 'Not found.',
  405: 'Method not allowed.',
  413: 'Payload too large.',
  415: 'Unsupported media type.',
  419: 'Page expired.',
  422: 'The given data was invalid.',
  429: 'Too many requests.',
  500: 'Server error.',
  503: 'Service unavailable.',
}

/**
 * The default message for a status code.
 *
 * @example
 * ```ts
 * defaultMessage(404) // 'Not found.'
 * ```
 */
export function defaultMessage(status: number): string {
  return MESSAGES[status] ?? (status >= 500 ? 'Server error.' : 'Request error.')
}
