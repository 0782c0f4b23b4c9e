import { AssertionError } from 'node:assert'
import { isDeepStrictEqual } from 'node:util'
import { getPath } from '../support/dot-path.ts'

/** What the assertions read from a response. */
export interface AssertableResponse {
  readonly status: number
  readonly headers: Headers
  readonly cookies: Map<string, string>
  text(): Promise<string>
}

/**
 * Throws an AssertionError whose message shows the response: status, the
 * headers that matter, and the start of the body, so a failing test says
 * what came back (a 419 page, a redirect to /login) without another run.
 *
 * @example
 * ```ts
 * await fail(response, 'Expected status 200, got 302.', { actual: 302, expected: 200 })
 * ```
 */
export async function fail(
  response: AssertableResponse,
  message: string,
  details: { actual?: unknown; expected?: unknown; operator?: string } = {},
): Promise<never> {
  throw new AssertionError({ message: `${message}\n\n${await describe(response)}`, ...details })
}

async function describe(response: AssertableResponse): Promise<string> {
  const lines = [`Response: ${response.status}`]
  for (const name of ['content-type', 'location']) {
    const value = response.headers.get(name)
    if (value) lines.push(`${name}: ${value}`)
  }
  const body = await response.text().catch(() => '')
  if (body) lines.push('', body.length > 2000 ? `${body.slice(0, 2000)}… (${body.length} characters)` : body)
  return lines.join('\n')
}

/** True when `actual` has every key of `subset` with the same value (deeply; lists match item by item). */
export function containsSubset(actual: unknown, subset: unknown): boolean {
  if (Array.isArray(subset)) return Array.isArray(actual) && subset.length <= actual.length && subset.every((item, i) => containsSubset(actual[i], item))
  if (subset !== null && typeof subset === 'object') {
    if (actual === null || typeof actual !== 'object') return false
    return Object.entries(subset).every(
      ([key, value]) => Object.prototype.hasOwnProperty.call(actual, key) && containsSubset((actual as Record<string, unknown>)[key], value),
    )
  }
  return isDeepStrictEqual(actual, subset)
}

/** A JSON value at a dotted path (`data.0.title`). */
export function jsonAt(value: unknown, path: string): unknown {
  return getPath(value, path)
}
