import type { PageComponent } from './page-component.ts'
import type { Outcome } from './request-queue.ts'

/** One call as its result is worked out: its action and its place among the request's calls (-1 when it was not sent). */
export interface SettledCall {
  method: string
  index: number
}

/** What a call's promise settles with: a value to resolve with, or an error to reject with. */
export type CallResult = { value: unknown } | { error: unknown }

/**
 * A feature's say in what a call's promise settles with (`@json()`: the
 * action's value, or a rejection with its validation errors); undefined
 * leaves the call to the next one, and then to the kernel (the answer).
 */
export type CallResultReader = (component: PageComponent, call: SettledCall, outcome: Outcome) => CallResult | undefined

const readers: CallResultReader[] = []

/**
 * Registers a feature's reader of call results, from its browser half.
 *
 * @example
 * ```ts
 * readCallResultsWith((component, call, outcome) => (isJson(component, call) ? { value: valueOf(outcome, call) } : undefined))
 * ```
 */
export function readCallResultsWith(reader: CallResultReader): void {
  readers.push(reader)
}

/**
 * What the first reader that takes the call makes of it, else undefined.
 *
 * @example
 * ```ts
 * const result = callResult(component, { method: 'search', index: 0 }, outcome)
 * ```
 */
export function callResult(component: PageComponent, call: SettledCall, outcome: Outcome): CallResult | undefined {
  for (const reader of readers) {
    const result = reader(component, call, outcome)
    if (result) return result
  }
  return undefined
}
