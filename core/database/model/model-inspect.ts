import type { InspectOptionsStylized, inspect as nodeInspect } from 'node:util'

/** What `inspectModel` reads of a model. */
export interface InspectedModel {
  $attributes: Record<string, unknown>
  readonly constructor: { readonly name: string }
}

/**
 * A model as `console.log`, `util.inspect` and `kiln repl` show it: its class
 * and its attributes, as tinker shows an Eloquent model
 * (`User { id: 1, name: 'Ada', email: 'ada@example.com' }`), rather than the
 * proxy that serves the attributes as properties and its bookkeeping fields.
 * Hidden attributes are shown too: this is for developers, not a response.
 *
 * Node calls it with the model as `this` (`ModelRecord.prototype[inspect.custom]`).
 *
 * @example
 * ```ts
 * inspect(await User.find(1)) // "User { id: 1, name: 'Ada', ... }"
 * ```
 */
export function inspectModel(this: InspectedModel, depth: number, options: InspectOptionsStylized, inspect: typeof nodeInspect): string {
  const name = this.constructor.name
  // Past the depth limit, as Node shows a nested object: `[User]`.
  if (depth < 0) return options.stylize(`[${name}]`, 'special')
  // `depth` is what is left at this level: the attributes are the model's own level, so they get all of it.
  return `${name} ${inspect({ ...this.$attributes }, { ...options, depth })}`
}
