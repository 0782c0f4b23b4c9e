import type Handlebars from 'handlebars'

type Frame = Record<string, unknown>

interface EachOptions {
  fn: (context: unknown, options?: { data?: Frame; blockParams?: unknown[] }) => string
  data?: Frame
}

/**
 * Wraps Handlebars' own `each` so every iteration also has, besides
 * `@index`, `@key`, `@first` and `@last`:
 *
 * - `@iteration` (from 1), `@count`, `@remaining` (after this one);
 * - `@even`, `@odd` (of `@iteration`: the first row is odd);
 * - `@depth` (1 in the outermost `each`) and `@parent`, the data of the
 *   loop around this one (`{{@parent.iteration}}`), as Laravel's `$loop`.
 *
 * Everything else is Handlebars' `each` itself: arrays, objects, `{{else}}`,
 * block parameters (`as |item i|`). An iterable that is not an array (a
 * `Map`, a `Set`, a generator) is read into an array first, so its count is
 * known before the first item renders.
 *
 * @example
 * ```ts
 * hbs.registerHelper('each', loopEach(hbs.helpers.each!))
 * // {{#each todos}}{{@iteration}}/{{@count}} {{title}}{{/each}}
 * ```
 */
export function loopEach(each: Handlebars.HelperDelegate): Handlebars.HelperDelegate {
  return function (this: unknown, context: unknown, options: EachOptions) {
    if (!options?.fn || !options.data) return each.call(this, context, options)
    if (typeof context === 'function') context = (context as (this: unknown) => unknown).call(this)
    if (isOtherIterable(context)) context = Array.from(context)
    const count = Array.isArray(context) ? context.length : context && typeof context === 'object' ? Object.keys(context).length : 0
    const outer = options.data
    const depth = (typeof outer.depth === 'number' ? outer.depth : 0) + 1
    const parent = depth > 1 ? outer : undefined
    const fn = options.fn
    const withLoop: EachOptions['fn'] = (value, iteration) => {
      const frame = iteration?.data
      if (frame && typeof frame.index === 'number') {
        const n = frame.index + 1
        Object.assign(frame, { iteration: n, count, remaining: count - n, even: n % 2 === 0, odd: n % 2 === 1, depth, parent })
      }
      return fn(value, iteration)
    }
    return each.call(this, context, { ...options, fn: withLoop })
  }
}

function isOtherIterable(value: unknown): value is Iterable<unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value) && typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function'
}
