import { currentHttpContext } from '../http/pipeline/http-context.ts'

type Errors = Record<string, unknown>

interface ErrorOptions {
  fn?: (context: unknown, options?: { data?: unknown; blockParams?: unknown[] }) => string
  inverse?: (context: unknown, options?: { data?: unknown }) => string
  data?: { root?: Record<string | symbol, unknown> }
}

/**
 * The validation errors a view shows: `errors` in its data (a component's
 * errors; what a controller passed), else the `errors` flashed into the
 * session by the request before (`session.flash('errors', e.errors)` before
 * a redirect back to the form).
 */
function errorsOf(options: ErrorOptions | undefined): Errors | undefined {
  const root = options?.data?.root
  if (root && Object.prototype.hasOwnProperty.call(root, 'errors')) return asErrors(root.errors)
  return asErrors(currentHttpContext()?.session?.get('errors'))
}

function asErrors(value: unknown): Errors | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Errors) : undefined
}

/**
 * The first message of a field, or undefined. Own keys only, so a field
 * named `constructor` or `__proto__` is just a field without errors.
 *
 * @example
 * ```ts
 * firstError({ title: ['Too short.'] }, 'title') // 'Too short.'
 * ```
 */
export function firstError(errors: Errors | undefined, field: string): string | undefined {
  if (!errors || !Object.prototype.hasOwnProperty.call(errors, field)) return undefined
  const messages = errors[field]
  const first: unknown = Array.isArray(messages) ? messages[0] : messages
  return typeof first === 'string' && first !== '' ? first : undefined
}

/**
 * The `error` view helper, inline or as a block:
 *
 * - `{{error "title"}}`: the field's first message (escaped), or nothing;
 * - `{{#error "title"}}<p>{{message}}</p>{{else}}…{{/error}}`: the block
 *   when the field has an error, with `message` in scope (also as a block
 *   parameter, `{{#error "title" as |msg|}}`), else the `{{else}}` block.
 *
 * The block keeps the surrounding data readable (`{{title}}` still works
 * inside it); `message` shadows a field of the same name, as in Laravel's
 * `@error`.
 *
 * @example
 * ```ts
 * app.views.helper('error', errorHelper)
 * // <input name="title" class="{{class invalid=(error "title")}}">
 * ```
 */
export function errorHelper(this: unknown, field: unknown, options: ErrorOptions): string {
  const message = typeof field === 'string' ? firstError(errorsOf(options), field) : undefined
  if (!options?.fn) return message ?? ''
  if (message === undefined) return options.inverse?.(this) ?? ''
  return options.fn(withMessage(this, message), { data: options.data, blockParams: [message] })
}

/** The block's context: the surrounding one plus `message`. Accessors are copied as accessors, so computed values are not all worked out. */
function withMessage(context: unknown, message: string): Record<string | symbol, unknown> {
  const base = context && typeof context === 'object' ? Object.getOwnPropertyDescriptors(context) : {}
  return Object.defineProperties({}, { ...base, message: { value: message, enumerable: true, writable: true, configurable: true } })
}

/**
 * The `old` view helper: a form field's value flashed by the previous
 * request (`session.flashInput(request.all())` before a redirect back),
 * else the fallback given, else nothing. Escaped as any value.
 *
 * @example
 * ```ts
 * app.views.helper('old', oldHelper)
 * // <input name="email" value="{{old "email" user.email}}">
 * ```
 */
export function oldHelper(...args: unknown[]): unknown {
  const [field, fallback] = args.slice(0, -1)
  const value = typeof field === 'string' ? currentHttpContext()?.session?.old(field) : undefined
  return value === undefined || value === null ? (fallback ?? '') : value
}
