import { z } from 'zod'
import { attributeMessage, issueErrors } from './rule-messages.ts'
import type { FieldRule } from './validate-decorator.ts'
import type { ErrorHolder } from '../../component-run.ts'

// Form objects reach validation through this file: what they run of it, the failed rules' report too.
export { collectFailedRules } from './failed-rules.ts'

/** What a check found: the parsed values of the fields checked, and the messages by field path. */
export interface FieldCheck {
  data: Record<string, unknown>
  errors: Record<string, string[]>
}

/**
 * Checks fields of `values` with their `@validate()` rules: all the rules,
 * or only those of `fields`. Error keys are the field paths, after
 * `prefix` (`form.` for a form object). @internal
 *
 * @example
 * ```ts
 * checkFields({ title: 'ab' }, fieldRules(CreatePost)) // { data: {}, errors: { title: ['The title field must be at least 3 characters.'] } }
 * ```
 */
export function checkFields(values: Record<string, unknown>, rules: ReadonlyMap<string, FieldRule>, fields?: readonly string[], prefix = ''): FieldCheck {
  const names = (fields ?? [...rules.keys()]).filter((name) => rules.has(name))
  if (names.length === 0) return { data: {}, errors: {} }
  const shape = Object.fromEntries(names.map((name) => [name, rules.get(name)!.schema]))
  const input = Object.fromEntries(names.map((name) => [name, values[name]]))
  // reportInput: a failed rule is told apart from a missing value by the input (failed-rules.ts: `required`).
  const result = z.object(shape).safeParse(input, { error: attributeMessage, reportInput: true })
  if (result.success) return { data: result.data, errors: {} }
  return { data: {}, errors: issueErrors(result.error.issues, rules, prefix) }
}

/**
 * Errors with those of the named fields (and paths inside them) replaced by
 * `fresh`: the other fields keep theirs. @internal
 *
 * @example
 * ```ts
 * replaceErrors({ title: ['x'], body: ['y'] }, ['title'], {}) // { body: ['y'] }
 * ```
 */
export function replaceErrors(current: Record<string, string[]>, fields: readonly string[], fresh: Record<string, string[]>): Record<string, string[]> {
  const kept = Object.entries(current).filter(([key]) => !fields.some((field) => key === field || key.startsWith(`${field}.`)))
  return { ...Object.fromEntries(kept), ...fresh }
}

/**
 * Values in public properties that bring their own rules (form objects):
 * how validation checks one. The forms feature adds form objects, so
 * validation knows no form class (forms build on validation, not the other
 * way round).
 *
 * @example
 * ```ts
 * addRuledValues({ holds: (v) => v instanceof Form, bind: bindForms, check: checkForm, validateOnly: validateFormOnly, fieldRule: formFieldRule })
 * ```
 */
export interface RuledValues {
  holds(value: unknown): boolean
  /** Ties such values to the component they are properties of (their messages go to its errors). */
  bind(component: ErrorHolder): void
  /** The checked data and the messages (keyed `<name>.<field>`) of the value in property `name`. */
  check(value: unknown, name: string): { data: Record<string, unknown>; errors: Record<string, string[]> }
  /** Validates the value, or one field of it, keeping the other fields' messages; throws to stop the calls on failure. */
  validateOnly(value: unknown, field: string | undefined): void
  /** The rule of one field of the value. */
  fieldRule(value: unknown, field: string): FieldRule | undefined
}

const ruled: RuledValues[] = []

/**
 * Lets `validate()` check values that bring their own rules (form objects).
 *
 * @example
 * ```ts
 * addRuledValues(formRules)
 * ```
 */
export function addRuledValues(values: RuledValues): void {
  if (!ruled.includes(values)) ruled.push(values)
}

/**
 * The kinds of values with their own rules that were added (form objects).
 *
 * @example
 * ```ts
 * ruledValues().find((values) => values.holds(value))
 * ```
 */
export function ruledValues(): readonly RuledValues[] {
  return ruled
}
