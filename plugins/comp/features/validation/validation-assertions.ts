import type { FeatureProvider } from '../../extension/feature-provider.ts'
import { failAssertion, show, type ComponentAssertions, type ErrorExpectation } from '../../testing/assertions.ts'
import type { FailedRules } from './failed-rules.ts'

declare module '../../testing/assertions.ts' {
  interface ComponentAssertions {
    /**
     * The last update left validation errors: any at all, on the given fields,
     * or, with an object, per field the rule that failed (`'min'`, `'min:3'`,
     * `'required'`, `'email'`) or a text a message contains (or a pattern it
     * matches). Fields of a form object are keyed by their path (`form.title`).
     *
     * @example `form.assertHasErrors('title')`, `form.assertHasErrors(['title', 'due'])`, `form.assertHasErrors({ title: 'min' })`, `form.assertHasErrors({ title: 'at least 3' })`
     */
    assertHasErrors(fields?: string | string[] | Record<string, ErrorExpectation>): this

    /** No validation errors at all, or none on the given fields. @example `form.assertHasNoErrors()` or `form.assertHasNoErrors('title')` */
    assertHasNoErrors(fields?: string | string[]): this
  }
}

declare module '../../testing/pending-test.ts' {
  interface PendingComponentTest {
    /** See {@link ComponentAssertions.assertHasErrors}. */
    assertHasErrors(fields?: string | string[] | Record<string, ErrorExpectation>): this

    /** See {@link ComponentAssertions.assertHasNoErrors}. */
    assertHasNoErrors(fields?: string | string[]): this
  }
}

/**
 * What validation adds to a component under test: `assertHasErrors` and `assertHasNoErrors`, as Livewire's.
 *
 * @example
 * ```ts
 * const feature: FeatureProvider = { name: 'validation', assertions: validationAssertions }
 * ```
 */
export const validationAssertions: FeatureProvider['assertions'] = {
  assertHasErrors(this: ComponentAssertions, fields?: string | string[] | Record<string, ErrorExpectation>) {
    const errors = this.errors
    const shown = `The errors: ${show(errors)}`
    if (fields === undefined) {
      if (Object.keys(errors).length === 0)
        failAssertion(this, `Expected validation errors, but there are none.\nThe state: ${show(this.data)}`, { operator: 'assertHasErrors' })
      return
    }
    const wanted: Record<string, ErrorExpectation | undefined> =
      typeof fields === 'string' || Array.isArray(fields) ? Object.fromEntries([fields].flat().map((field) => [field, undefined])) : fields
    for (const [field, expectation] of Object.entries(wanted)) {
      const messages = Object.hasOwn(errors, field) ? (errors[field] ?? []) : []
      if (messages.length === 0) failAssertion(this, `Expected a validation error for ${field}, but it has none.\n${shown}`, { operator: 'assertHasErrors' })
      const rules = failedRules(this, field, messages)
      for (const part of expectation === undefined ? [] : [expectation].flat()) {
        const found =
          typeof part === 'string' ? rules.includes(part) || messages.some((message) => message.includes(part)) : messages.some((message) => part.test(message))
        if (!found) {
          const wanted = typeof part === 'string' ? `from the rule ${show(part)} or containing it` : `matching ${part}`
          const failed = rules.length === 0 ? '' : `, and the rules that failed are ${show(rules)}`
          failAssertion(this, `Expected an error for ${field} ${wanted}, but its messages are ${show(messages)}${failed}.`, {
            actual: messages,
            expected: part,
            operator: 'assertHasErrors',
          })
        }
      }
    }
  },

  assertHasNoErrors(this: ComponentAssertions, fields?: string | string[]) {
    const errors = this.errors
    const keys = fields === undefined ? Object.keys(errors) : [fields].flat().filter((field) => Object.hasOwn(errors, field) && errors[field]!.length > 0)
    if (keys.length > 0) {
      const which = fields === undefined ? 'no validation errors' : `no validation errors for ${[fields].flat().join(', ')}`
      failAssertion(this, `Expected ${which}, but there are: ${show(Object.fromEntries(keys.map((key) => [key, errors[key]])))}.`, {
        actual: errors,
        operator: 'assertHasNoErrors',
      })
    }
  },
}

/** The names of the rules behind a field's messages, as validation reported them in the test's requests (newest first wins). */
function failedRules(test: ComponentAssertions, field: string, messages: readonly string[]): string[] {
  const reports = test.observations('rules') as readonly FailedRules[]
  const names = new Set<string>()
  for (const message of messages) {
    const report = reports.findLast((failed) => Object.hasOwn(failed, field) && Object.hasOwn(failed[field]!, message))
    for (const name of report?.[field]?.[message] ?? []) names.add(name)
  }
  return [...names]
}
