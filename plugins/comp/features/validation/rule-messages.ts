import type { z } from 'zod'
import type { FieldRule } from './validate-decorator.ts'
import { noteFailedRule } from './failed-rules.ts'

type Issue = z.core.$ZodRawIssue

/**
 * Messages that name the field (`:attribute`, filled in afterwards), for
 * the common checks; other issues keep zod's own message. A message given
 * in the schema (`z.string().min(3, 'Too short')`) still wins: zod ranks it
 * above this per-parse map. @internal
 *
 * @example
 * ```ts
 * schema.safeParse(value, { error: attributeMessage })
 * ```
 */
export function attributeMessage(issue: Issue): string | undefined {
  const origin = 'origin' in issue ? String(issue.origin) : ''
  const unit = origin === 'string' ? ' characters' : origin === 'array' || origin === 'set' ? ' items' : ''
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined || issue.input === null
        ? 'The :attribute field is required.'
        : `The :attribute field must be a ${String(issue.expected)}.`
    case 'too_small':
      if (origin === 'string' && Number(issue.minimum) === 1) return 'The :attribute field is required.'
      return `The :attribute field must be at least ${String(issue.minimum)}${unit}.`
    case 'too_big':
      return unit
        ? `The :attribute field must not have more than ${String(issue.maximum)}${unit}.`
        : `The :attribute field must not be greater than ${String(issue.maximum)}.`
    case 'invalid_format':
      if (issue.format === 'email') return 'The :attribute field must be a valid email address.'
      if (issue.format === 'url') return 'The :attribute field must be a valid URL.'
      return 'The :attribute field format is invalid.'
    case 'invalid_value':
      return 'The selected :attribute is invalid.'
    default:
      return undefined
  }
}

/**
 * Errors by field path from a failed parse: each issue's message, or the
 * rule's `message` (for every issue, or by issue code), with `:attribute`
 * replaced by the rule's `as` (else the field's name in words). @internal
 *
 * @example
 * ```ts
 * issueErrors(result.error.issues, rules) // { title: ['The title field must be at least 3 characters.'] }
 * ```
 */
export function issueErrors(issues: readonly z.core.$ZodIssue[], rules: ReadonlyMap<string, FieldRule>, prefix = ''): Record<string, string[]> {
  const errors: Record<string, string[]> = Object.create(null)
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '')
    const rule = rules.get(field)
    const custom = typeof rule?.message === 'string' ? rule.message : rule?.message?.[issue.code]
    const message = (custom ?? issue.message).replaceAll(':attribute', rule?.as ?? words(field))
    const path = prefix + (issue.path.join('.') || '_')
    const list = (errors[path] ??= [])
    if (!list.includes(message)) list.push(message)
    noteFailedRule(path, message, issue)
  }
  return { ...errors }
}

/** `firstName` and `first_name` → `first name`. */
function words(name: string): string {
  return name
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase()
}
