import { KilnError } from '../support/errors.ts'
import { isPromiseLike } from '../support/promise-like.ts'
import { randomBytes } from 'node:crypto'
import { handlebars } from './handlebars-module.ts'

/**
 * Handlebars helpers are synchronous; a helper that must wait (render a
 * component that loads a model, say) returns a Promise. While a template
 * renders, such a helper leaves a placeholder token in the output; once the
 * template is done, every promise is awaited and the tokens are replaced.
 * A result that is a `SafeString` goes in as is; anything else is escaped,
 * as `{{helper}}` would escape it.
 *
 * One render is one synchronous `template()` call, so the collector of the
 * render in progress is a stack, not per-request state.
 *
 * @example
 * ```ts
 * const html = await withAsyncHelpers(() => template(data))
 * ```
 */
export async function withAsyncHelpers(render: () => string): Promise<string> {
  const collector: Collector = { nonce: `${PROCESS_NONCE}${(renders = (renders + 1) % Number.MAX_SAFE_INTEGER).toString(36)}`, pending: [] }
  stack.push(collector)
  let output: string
  try {
    output = render()
  } finally {
    stack.pop()
  }
  if (collector.pending.length === 0) return output
  const values = await Promise.all(collector.pending)
  const pattern = new RegExp(`\\u0000async:${collector.nonce}:(\\d+)\\u0000`, 'g')
  return output.replace(pattern, (_token, index: string) => {
    const value = values[Number(index)]
    const Handlebars = handlebars()
    return value instanceof Handlebars.SafeString ? value.toString() : Handlebars.escapeExpression(value === undefined || value === null ? '' : String(value))
  })
}

/**
 * Wraps a helper so a Promise it returns becomes a placeholder that
 * {@link withAsyncHelpers} fills in. Synchronous results pass through.
 *
 * @example
 * ```ts
 * hbs.registerHelper('comp', asyncCapable(compHelper))
 * ```
 */
export function asyncCapable<F extends (...args: any[]) => unknown>(fn: F): F {
  return function (this: unknown, ...args: unknown[]) {
    const result = fn.apply(this, args)
    if (!isPromiseLike(result)) return result
    const collector = stack.at(-1)
    if (!collector) throw new KilnError('An async view helper was called outside of a render.', { code: 'E_VIEW_OUTSIDE_RENDER' })
    const index = collector.pending.push(Promise.resolve(result)) - 1
    return new (handlebars().SafeString)(`\u0000async:${collector.nonce}:${index}\u0000`)
  } as F
}

interface Collector {
  nonce: string
  pending: Array<Promise<unknown>>
}

const stack: Collector[] = []
/** A secret per process plus a counter: placeholders no template data can guess, without random bytes per render. */
const PROCESS_NONCE = randomBytes(9).toString('hex')
let renders = 0
