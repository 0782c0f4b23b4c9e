import type { z } from 'zod'
import { metaOf } from '../../state/class-meta.ts'
import { kindRule } from '../../state/property-kinds.ts'
import { fieldRules, type FieldRule } from './validate-decorator.ts'

const merged = new WeakMap<Function, ReadonlyMap<string, FieldRule>>()

/**
 * The rules of a component's properties that `validate()` and
 * `validateOnly()` check one by one: their `@validate()` rules, and the
 * rules their declared kinds bring (an `@upload()` property's `maxKb`,
 * `mimes` and `required`), so that such a declaration is written once. A
 * property's `@validate()` rule, or its key in `static rules`, wins over
 * its kind's. A kind's rule does not run on each update: the browser's
 * value was checked against the declaration as it came in. @internal
 *
 * @example
 * ```ts
 * componentRules(Avatar).get('photo')?.schema // a file of at most 1024 KB, PNG or JPEG
 * ```
 */
export function componentRules(Class: Function): ReadonlyMap<string, FieldRule> {
  const cached = merged.get(Class)
  if (cached) return cached
  const own = fieldRules(Class)
  const shape = ((Class as { rules?: z.ZodType }).rules as { shape?: Record<string, unknown> } | undefined)?.shape ?? {}
  const rules = new Map<string, FieldRule>()
  for (const [name, kind] of metaOf(Class).kinds) {
    if (own.has(name) || Object.prototype.hasOwnProperty.call(shape, name)) continue
    const schema = kindRule(kind.kind)?.rule?.(kind)
    if (schema) rules.set(name, { schema, onUpdate: false })
  }
  if (rules.size === 0) {
    merged.set(Class, own)
    return own
  }
  for (const [name, rule] of own) rules.set(name, rule)
  merged.set(Class, rules)
  return rules
}
