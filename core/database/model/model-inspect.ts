import type { InspectOptionsStylized, inspect as nodeInspect } from 'node:util'

/** Shown in place of a hidden attribute's value: Node prints a symbol's description bare. */
const HIDDEN = { [Symbol.for('nodejs.util.inspect.custom')]: () => '[hidden]' }

/** What `inspectModel` reads of a model. */
export interface InspectedModel {
  $attributes: Record<string, unknown>
  readonly constructor: { readonly name: string; readonly hidden?: readonly string[] }
}

/**
 * A model as `console.log`, `util.inspect` and `kiln repl` show it: its class
 * and its attributes, as tinker shows an Eloquent model
 * (`User { id: 1, name: 'Ada', email: 'ada@example.com' }`), rather than the
 * proxy that serves the attributes as properties and its bookkeeping fields.
 * Hidden attributes (`static hidden`: a password hash, a token) show as
 * `[hidden]`: `console.log(user)` in app code ends up in logs, where secrets
 * do not belong. Read one by name when you need it (`user.password`).
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
  const hidden = new Set(this.constructor.hidden ?? [])
  const shown = Object.fromEntries(Object.entries(this.$attributes).map(([key, value]) => [key, hidden.has(key) ? HIDDEN : value] as const))
  return `${name} ${inspect(shown, { ...options, depth })}`
}
