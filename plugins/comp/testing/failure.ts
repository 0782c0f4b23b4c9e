import { AssertionError } from 'node:assert'
import { inspect } from 'node:util'

/** What a failure names of the component under test (a `ComponentAssertions`). */
export interface FailingTest {
  readonly name: string
  readonly status: number
  readonly message: string | undefined
}

/** What an assertion's failure carries besides its message, as `node:assert`'s `AssertionError` takes it. */
export interface FailureDetails {
  actual?: unknown
  expected?: unknown
  operator: string
}

/**
 * Fails an assertion of a component under test: an `AssertionError` whose
 * message names the component and, when the last update was refused, says so
 * (a refused update explains most surprises). For the assertions features add.
 *
 * @example
 * ```ts
 * failAssertion(test, 'Expected no redirect, but there was one.', { actual: test.redirect, operator: 'assertNoRedirect' })
 * ```
 */
export function failAssertion(test: FailingTest, message: string, details: FailureDetails): never {
  const refused =
    test.status !== 200 && details.operator !== 'assertStatus' ? `\n(The last update was refused: ${test.status} ${show(test.message ?? '')}.)` : ''
  throw new AssertionError({ message: `${test.name}: ${message}${refused}`, actual: details.actual, expected: details.expected, operator: details.operator })
}

/**
 * A value as it reads in an assertion's message: compact, cut at a length a terminal shows.
 *
 * @example `show({ title: 'Buy milk' }) // "{ title: 'Buy milk' }"`
 */
export function show(value: unknown): string {
  const text = inspect(value, { depth: 4, breakLength: Infinity, maxArrayLength: 20, maxStringLength: 200 })
  return text.length > 800 ? `${text.slice(0, 800)}…` : text
}

/**
 * Up to 600 characters of the HTML, around where `near` would be (its
 * start, if it is not there), for a failure's message.
 *
 * @example
 * ```ts
 * snippet(test.html, '<li>') // '<ul><li>Milk</li>…'
 * ```
 */
export function snippet(html: string, near: string): string {
  const text = html.replace(/\s+/g, ' ').trim()
  if (text.length <= 600) return text
  const at = Math.max(0, text.indexOf(near.replace(/\s+/g, ' ')) - 200)
  return `${at > 0 ? '…' : ''}${text.slice(at, at + 600)}…`
}
