import type { z } from 'zod'
import { runOf, type ComponentRun } from '../../component-run.ts'
import { isObserved, reportToTests } from '../../testing/observed.ts'

/** The rules that failed in one validation: field → message → the rule's names (`min`, `min:3`, `too_small`). */
export type FailedRules = Record<string, Record<string, string[]>>

// The validation under way. Validation is synchronous (safeParse), so no other request's can interleave.
let collecting: FailedRules | undefined

/**
 * The names a Livewire user gives the rule behind a zod issue (`required`,
 * `min`, `max`, `email`...), with its parameter where it has one (`min:3`),
 * and zod's own code (`too_small`) last, so a test may use either.
 *
 * @example
 * ```ts
 * ruleNames({ code: 'too_small', origin: 'string', minimum: 3, inclusive: true, path: [], message: '', input: 'ab' }) // ['min', 'min:3', 'too_small']
 * ```
 */
export function ruleNames(issue: z.core.$ZodIssue): string[] {
  return [...new Set([...livewireNames(issue), issue.code])]
}

function livewireNames(issue: z.core.$ZodIssue): string[] {
  switch (issue.code) {
    case 'invalid_type':
      // The input is there when the parse reported it (validation asks for it: reportInput).
      if ('input' in issue && (issue.input === undefined || issue.input === null)) return ['required']
      return [TYPE_RULES[issue.expected] ?? issue.expected]
    case 'too_small': {
      const size = String(issue.minimum)
      if (issue.exact) return ['size', `size:${size}`]
      if (issue.inclusive === false) return ['gt', `gt:${size}`]
      // z.string().min(1) is how zod says "required" (its message says so too: rule-messages.ts).
      return [...(issue.origin === 'string' && Number(issue.minimum) === 1 ? ['required'] : []), 'min', `min:${size}`]
    }
    case 'too_big': {
      const size = String(issue.maximum)
      if (issue.exact) return ['size', `size:${size}`]
      return issue.inclusive === false ? ['lt', `lt:${size}`] : ['max', `max:${size}`]
    }
    case 'invalid_format':
      return [FORMAT_RULES[issue.format] ?? issue.format]
    case 'invalid_value':
      return ['in']
    case 'not_multiple_of':
      return ['multiple_of', `multiple_of:${String(issue.divisor)}`]
    default:
      return []
  }
}

// zod's expected types and formats, in Laravel's rule names where they differ.
const TYPE_RULES: Record<string, string> = { number: 'numeric', int: 'integer', bigint: 'integer', object: 'array', file: 'file' }
const FORMAT_RULES: Record<string, string> = {
  regex: 'regex',
  starts_with: 'starts_with',
  ends_with: 'ends_with',
  includes: 'contains',
  datetime: 'date',
  date: 'date',
  ipv4: 'ipv4',
  ipv6: 'ipv6',
}

/**
 * Notes that `issue` gave `message` for the field `path`, in the validation
 * under way (nothing happens outside one).
 *
 * @example
 * ```ts
 * noteFailedRule('title', 'The title field is required.', issue)
 * ```
 */
export function noteFailedRule(path: string, message: string, issue: z.core.$ZodIssue): void {
  if (!collecting) return
  const messages = (collecting[path] ??= {})
  messages[message] = [...new Set([...(messages[message] ?? []), ...ruleNames(issue)])]
}

/**
 * Runs a validation of `component`, and tells the tests that observe its app
 * which rules failed (for `assertHasErrors({ title: 'min' })`). A validation
 * inside another (a form's, inside the component's) reports with the outer one.
 * When no test observes the app it only runs the validation.
 *
 * @example
 * ```ts
 * return collectFailedRules(component, () => check(component))
 * ```
 */
export function collectFailedRules<T>(component: object, validation: () => T): T {
  // Outside a test that observes the app, nothing is collected: validation costs what it did.
  const run = collecting ? undefined : observedRun(component)
  if (!run) return validation()
  const failed: FailedRules = {}
  collecting = failed
  try {
    return validation()
  } finally {
    collecting = undefined
    if (Object.keys(failed).length > 0) reportToTests(run.ctx?.app, run.id, 'rules', failed)
  }
}

/** The component's run, when a test observes its app. */
function observedRun(component: object): ComponentRun | undefined {
  let run: ComponentRun
  try {
    run = runOf(component)
  } catch {
    return undefined // validated outside a request (a form on its own): no test can be watching it
  }
  return isObserved(run.ctx?.app) ? run : undefined
}
