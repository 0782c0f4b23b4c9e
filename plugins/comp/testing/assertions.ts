import { AssertionError } from 'node:assert'
import { inspect, isDeepStrictEqual } from 'node:util'
import Handlebars from 'handlebars'
import type { UpdateResponse } from '../protocol/update-response.ts'
import { visibleHtml } from './page-html.ts'

/** An event an update dispatched. */
export type TestDispatch = UpdateResponse['effects']['dispatches'][number]

/** What `assertHasErrors` may expect of a field's messages: a part of one, a pattern, or several. */
export type ErrorExpectation = string | RegExp | Array<string | RegExp>

/** Text for `assertSee`: one piece or several, each looked for on its own. */
export type SeeText = string | number | Array<string | number>

/**
 * The assertions of a component under test ({@link ComponentTest}), in
 * Livewire's words. Each one checks the component as the last update left it,
 * returns the test so that more can follow, and throws an `AssertionError`
 * (from `node:assert`, which every test runner reports) whose message shows
 * what was there: the state, the errors, the events, a piece of the HTML.
 *
 * @example
 * ```ts
 * const counter = await testComponent(client, 'counter').call('increment')
 * counter.assertSet('count', 1).assertSee('1').assertHasNoErrors()
 * ```
 */
export abstract class ComponentAssertions {
  abstract html: string
  abstract status: number
  abstract message: string | undefined
  abstract readonly name: string
  abstract readonly data: Record<string, unknown>
  abstract readonly errors: Record<string, string[]>
  abstract readonly dispatches: TestDispatch[]
  abstract readonly redirect: string | undefined
  abstract get(path: string): unknown
  /** Throws when a set or call of this component is still running (a forgotten `await`). */
  protected abstract checkIdle(): void

  /**
   * The rendered HTML shows each text, escaped as `{{value}}` escapes it
   * (`Tom & Jerry` is found as `Tom &amp; Jerry`).
   *
   * @example `counter.assertSee('3')` or `list.assertSee(['Buy milk', 'Walk the dog'])`
   */
  assertSee(text: SeeText): this {
    return this.#see(text, { escape: true, expect: true })
  }

  /** The rendered HTML shows none of the texts (escaped as the view escapes them). @example `list.assertDontSee('Buy milk')` */
  assertDontSee(text: SeeText): this {
    return this.#see(text, { escape: true, expect: false })
  }

  /** The rendered HTML holds this markup as written. @example `form.assertSeeHtml('<p class="error">')` */
  assertSeeHtml(html: SeeText): this {
    return this.#see(html, { escape: false, expect: true })
  }

  /** The rendered HTML does not hold this markup. @example `form.assertDontSeeHtml('<p class="error">')` */
  assertDontSeeHtml(html: SeeText): this {
    return this.#see(html, { escape: false, expect: false })
  }

  /**
   * A property (a dotted path reaches inside objects and lists) deeply equals
   * `value`; a function is a check instead: it receives the value and
   * returns whether it is right.
   *
   * @example `form.assertSet('title', '').assertSet('address.city', 'Oslo').assertSet('items', (items) => Array.isArray(items))`
   */
  assertSet(path: string, value: unknown): this {
    this.checkIdle()
    const actual = this.get(path)
    const ok = typeof value === 'function' ? Boolean((value as (actual: unknown) => unknown)(actual)) : isDeepStrictEqual(actual, value)
    if (!ok) {
      const expected = typeof value === 'function' ? 'to pass the given check' : `to be ${show(value)}`
      this.#fail(`Expected ${path} ${expected}, but it is ${show(actual)}.\nThe state: ${show(this.data)}`, {
        actual,
        expected: value,
        operator: 'assertSet',
      })
    }
    return this
  }

  /** A property does not deeply equal `value`. @example `counter.assertNotSet('count', 0)` */
  assertNotSet(path: string, value: unknown): this {
    this.checkIdle()
    const actual = this.get(path)
    if (isDeepStrictEqual(actual, value))
      this.#fail(`Expected ${path} not to be ${show(value)}, but it is.\nThe state: ${show(this.data)}`, { actual, expected: value, operator: 'assertNotSet' })
    return this
  }

  /** A list property holds `count` items (an object: `count` keys). @example `list.assertCount('todos', 2)` */
  assertCount(path: string, count: number): this {
    this.checkIdle()
    const actual = this.get(path)
    const size = Array.isArray(actual) ? actual.length : actual !== null && typeof actual === 'object' ? Object.keys(actual).length : undefined
    if (size !== count) {
      const found = size === undefined ? `it is ${show(actual)}, which is not a list` : `it holds ${size}: ${show(actual)}`
      this.#fail(`Expected ${path} to hold ${count} item${count === 1 ? '' : 's'}, but ${found}.`, { actual: size, expected: count, operator: 'assertCount' })
    }
    return this
  }

  /**
   * The last update left validation errors: any at all, on the given fields,
   * or, with an object, messages that contain a text (or match a pattern)
   * per field. Fields of a form object are keyed by their path (`form.title`).
   *
   * @example `form.assertHasErrors('title')`, `form.assertHasErrors(['title', 'due'])`, `form.assertHasErrors({ title: 'at least 3' })`
   */
  assertHasErrors(fields?: string | string[] | Record<string, ErrorExpectation>): this {
    this.checkIdle()
    const errors = this.errors
    const shown = `The errors: ${show(errors)}`
    if (fields === undefined) {
      if (Object.keys(errors).length === 0)
        this.#fail(`Expected validation errors, but there are none.\nThe state: ${show(this.data)}`, { operator: 'assertHasErrors' })
      return this
    }
    const wanted: Record<string, ErrorExpectation | undefined> =
      typeof fields === 'string' || Array.isArray(fields) ? Object.fromEntries([fields].flat().map((field) => [field, undefined])) : fields
    for (const [field, expectation] of Object.entries(wanted)) {
      const messages = Object.hasOwn(errors, field) ? (errors[field] ?? []) : []
      if (messages.length === 0) this.#fail(`Expected a validation error for ${field}, but it has none.\n${shown}`, { operator: 'assertHasErrors' })
      for (const part of expectation === undefined ? [] : [expectation].flat()) {
        const found = messages.some((message) => (typeof part === 'string' ? message.includes(part) : part.test(message)))
        if (!found)
          this.#fail(
            `Expected an error for ${field} ${typeof part === 'string' ? `containing ${show(part)}` : `matching ${part}`}, but its messages are ${show(messages)}.`,
            {
              actual: messages,
              expected: part,
              operator: 'assertHasErrors',
            },
          )
      }
    }
    return this
  }

  /** No validation errors at all, or none on the given fields. @example `form.assertHasNoErrors()` or `form.assertHasNoErrors('title')` */
  assertHasNoErrors(fields?: string | string[]): this {
    this.checkIdle()
    const errors = this.errors
    const keys = fields === undefined ? Object.keys(errors) : [fields].flat().filter((field) => Object.hasOwn(errors, field) && errors[field]!.length > 0)
    if (keys.length > 0) {
      const which = fields === undefined ? 'no validation errors' : `no validation errors for ${[fields].flat().join(', ')}`
      this.#fail(`Expected ${which}, but there are: ${show(Object.fromEntries(keys.map((key) => [key, errors[key]])))}.`, {
        actual: errors,
        operator: 'assertHasNoErrors',
      })
    }
    return this
  }

  /**
   * The last update dispatched the event; with `params`, one whose data has
   * those values (other keys may be there too); with a function, one it
   * accepts.
   *
   * @example `form.assertDispatched('todo-added', { title: 'Buy milk' })` or `form.assertDispatched('todo-added', (params) => params.title !== '')`
   */
  assertDispatched(name: string, params?: Record<string, unknown> | ((params: Record<string, unknown>, dispatch: TestDispatch) => unknown)): this {
    this.checkIdle()
    const named = this.dispatches.filter((dispatch) => dispatch.name === name)
    const matches =
      params === undefined
        ? named
        : named.filter((dispatch) =>
            typeof params === 'function'
              ? Boolean(params(dispatch.params, dispatch))
              : Object.entries(params).every(([key, value]) => Object.hasOwn(dispatch.params, key) && isDeepStrictEqual(dispatch.params[key], value)),
          )
    if (matches.length === 0) {
      const detail = params === undefined ? '' : typeof params === 'function' ? ' that passes the given check' : ` with ${show(params)}`
      this.#fail(`Expected "${name}" to be dispatched${detail}, but the last update dispatched ${this.#shownDispatches()}.`, {
        actual: this.dispatches,
        operator: 'assertDispatched',
      })
    }
    return this
  }

  /** The last update did not dispatch the event. @example `form.assertNotDispatched('todo-added')` */
  assertNotDispatched(name: string): this {
    this.checkIdle()
    if (this.dispatches.some((dispatch) => dispatch.name === name))
      this.#fail(`Expected "${name}" not to be dispatched, but the last update dispatched ${this.#shownDispatches()}.`, {
        actual: this.dispatches,
        operator: 'assertNotDispatched',
      })
    return this
  }

  /** The last update redirected: anywhere, to this address, or to one matching a pattern. @example `form.assertRedirect('/todos')` */
  assertRedirect(url?: string | RegExp): this {
    this.checkIdle()
    const actual = this.redirect
    const ok = actual !== undefined && (url === undefined || (typeof url === 'string' ? actual === url : url.test(actual)))
    if (!ok) {
      const target = url === undefined ? '' : typeof url === 'string' ? ` to ${show(url)}` : ` to an address matching ${url}`
      this.#fail(`Expected a redirect${target}, but ${actual === undefined ? 'the last update did not redirect' : `it went to ${show(actual)}`}.`, {
        actual,
        expected: url,
        operator: 'assertRedirect',
      })
    }
    return this
  }

  /** The last update did not redirect. @example `form.assertNoRedirect()` */
  assertNoRedirect(): this {
    this.checkIdle()
    if (this.redirect !== undefined)
      this.#fail(`Expected no redirect, but the last update went to ${show(this.redirect)}.`, { actual: this.redirect, operator: 'assertNoRedirect' })
    return this
  }

  /**
   * The HTTP status of the last update (200 before any): 403 for a method the
   * browser may not call or a locked property, 422 for a property the
   * component does not have, 419 for an expired page.
   *
   * @example `counter.call('mount').assertStatus(403)`
   */
  assertStatus(status: number): this {
    this.checkIdle()
    if (this.status !== status) {
      const said = this.message === undefined ? '' : `: ${show(this.message)}`
      this.#fail(`Expected the last update to answer ${status}, but it answered ${this.status}${said}.`, {
        actual: this.status,
        expected: status,
        operator: 'assertStatus',
      })
    }
    return this
  }

  #see(text: SeeText, options: { escape: boolean; expect: boolean }): this {
    this.checkIdle()
    const html = visibleHtml(this.html)
    for (const piece of [text].flat()) {
      const wanted = options.escape ? Handlebars.escapeExpression(String(piece)) : String(piece)
      if (html.includes(wanted) === options.expect) continue
      const escaped = wanted === String(piece) ? '' : ` (escaped: ${show(wanted)})`
      const verb = options.expect ? 'to see' : 'not to see'
      this.#fail(
        `Expected ${verb} ${show(String(piece))}${escaped} in the ${this.name} component, but it is ${options.expect ? 'not ' : ''}there.\nThe HTML: ${snippet(html, wanted)}`,
        {
          actual: html,
          expected: wanted,
          operator: options.escape ? (options.expect ? 'assertSee' : 'assertDontSee') : options.expect ? 'assertSeeHtml' : 'assertDontSeeHtml',
        },
      )
    }
    return this
  }

  #shownDispatches(): string {
    return this.dispatches.length === 0 ? 'no events' : show(this.dispatches.map(({ name, params }) => ({ name, params })))
  }

  #fail(message: string, details: { actual?: unknown; expected?: unknown; operator: string }): never {
    // A refused update explains most surprises: say so beside every failure but the status's own.
    const refused =
      this.status !== 200 && details.operator !== 'assertStatus' ? `\n(The last update was refused: ${this.status} ${show(this.message ?? '')}.)` : ''
    throw new AssertionError({ message: `${this.name}: ${message}${refused}`, actual: details.actual, expected: details.expected, operator: details.operator })
  }
}

/** A value as it reads in a message: compact, cut at a length a terminal shows. */
function show(value: unknown): string {
  const text = inspect(value, { depth: 4, breakLength: Infinity, maxArrayLength: 20, maxStringLength: 200 })
  return text.length > 800 ? `${text.slice(0, 800)}…` : text
}

/** Up to 600 characters of the HTML, around where `near` would be (its start, if it is not there). */
function snippet(html: string, near: string): string {
  const text = html.replace(/\s+/g, ' ').trim()
  if (text.length <= 600) return text
  const at = Math.max(0, text.indexOf(near.replace(/\s+/g, ' ')) - 200)
  return `${at > 0 ? '…' : ''}${text.slice(at, at + 600)}…`
}
