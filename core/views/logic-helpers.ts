import type Handlebars from 'handlebars'
import { KilnError } from '../support/errors.ts'
import { handlebars } from './handlebars-module.ts'
import type { ViewHelper } from './view-engine.ts'

/**
 * Truthiness as `{{#if}}` sees it: `false`, `0`, `''`, `null`, `undefined`
 * and an empty array are false, so `(and items done)` agrees with
 * `{{#if items}}`.
 *
 * @example
 * ```ts
 * truthy([]) // false
 * truthy('no') // true
 * ```
 */
export function truthy(value: unknown): boolean {
  return Boolean(value) && !(Array.isArray(value) && value.length === 0)
}

/** Handlebars passes its options object last; the values before it are what the template wrote. */
function values(name: string, args: unknown[], arity: { min: number; max?: number }, usage: string): unknown[] {
  const given = args.slice(0, -1)
  if (given.length < arity.min || given.length > (arity.max ?? Infinity)) {
    throw new KilnError(`{{${name}}} takes ${arity.max === arity.min ? arity.min : `${arity.min} or more`} value(s), got ${given.length}: ${usage}.`, {
      code: 'E_VIEW_HELPER_ARGS',
    })
  }
  return given
}

function compare(name: string, test: (a: never, b: never) => boolean): ViewHelper {
  return (...args: unknown[]) => {
    const [a, b] = values(name, args, { min: 2, max: 2 }, `(${name} count 3)`)
    return test(a as never, b as never)
  }
}

/**
 * Comparison and logic helpers for every view, usable inline and as
 * subexpressions: `{{#if (and (gt count 3) (not done))}}`.
 *
 * - `eq`, `ne`: strict (`===`, `!==`); `gt`, `gte`, `lt`, `lte`: `>`, `>=`, `<`, `<=`;
 * - `and`: the first false value or else the last, `or`: the first true value
 *   or else the last (so `{{or nickname name}}` prints a fallback), `not`: a boolean;
 * - `hash`: an object from its `key=value` pairs, `(hash active=isActive)`.
 *
 * A wrong number of values is a `KilnError` (`E_VIEW_HELPER_ARGS`): a typo
 * such as `(gt count)` would otherwise be quietly false.
 *
 * @example
 * ```ts
 * for (const [name, fn] of Object.entries(logicHelpers)) app.views.helper(name, fn)
 * // {{#if (eq status "done")}}✓{{/if}}
 * ```
 */
export const logicHelpers: Record<string, ViewHelper> = {
  eq: compare('eq', (a, b) => a === b),
  ne: compare('ne', (a, b) => a !== b),
  gt: compare('gt', (a, b) => a > b),
  gte: compare('gte', (a, b) => a >= b),
  lt: compare('lt', (a, b) => a < b),
  lte: compare('lte', (a, b) => a <= b),
  and: (...args: unknown[]) => {
    const given = values('and', args, { min: 2 }, '(and a b)')
    return given.find((value) => !truthy(value)) ?? given.at(-1)
  },
  or: (...args: unknown[]) => {
    const given = values('or', args, { min: 2 }, '(or a b)')
    return given.find(truthy) ?? given.at(-1)
  },
  not: (...args: unknown[]) => !truthy(values('not', args, { min: 1, max: 1 }, '(not done)')[0]),
  // Handlebars has no object literal; `(hash a=1 b=2)` is one (for `class`, a partial, a component's parameters).
  hash: (options: { hash?: Record<string, unknown> }) => inSourceOrder(options?.hash),
}

/**
 * The `class` helper: a class list from names that are always on and names
 * switched by a condition, as escaped attribute text.
 *
 * - a string adds its classes (`"btn btn-lg"`); a false value adds nothing;
 * - `name=condition` pairs (hash) add `name` when the condition holds; a
 *   name Handlebars cannot write as a key (`w-1/2`, `p-0.5`) goes in an
 *   object: `(hash)` cannot hold it either, so pass one from the view's data;
 * - an array adds each of its entries, an object each key whose value holds.
 *
 * Each class appears once, in the order first given.
 *
 * @example
 * ```ts
 * app.views.helper('class', classList)
 * // <button class="{{class "btn" active=isActive btn-danger=hasErrors}}">
 * // → <button class="btn active">
 * ```
 */
export function classList(...args: unknown[]): Handlebars.SafeString {
  const options = args.at(-1) as { hash?: Record<string, unknown> } | undefined
  const names: string[] = []
  for (const arg of args.slice(0, -1)) addClasses(names, arg)
  addClasses(names, inSourceOrder(options?.hash))
  // Escaped here, and safe, so `{{{class ...}}}` cannot open a hole either.
  return new (handlebars().SafeString)(handlebars().escapeExpression([...new Set(names)].join(' ')))
}

/** Handlebars 4 builds a hash with its pairs in reverse order; a class list reads better in the order written. */
function inSourceOrder(hash: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(hash ?? {}).reverse())
}

function addClasses(into: string[], value: unknown): void {
  if (value instanceof handlebars().SafeString || typeof value === 'number') value = String(value)
  if (typeof value === 'string') into.push(...value.split(/\s+/).filter(Boolean))
  else if (Array.isArray(value)) for (const entry of value) addClasses(into, entry)
  else if (value && typeof value === 'object') for (const [name, on] of Object.entries(value)) if (truthy(on)) addClasses(into, name)
}
