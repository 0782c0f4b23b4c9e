import { isDeepStrictEqual } from 'node:util'
import Handlebars from 'handlebars'
import { KilnError, type Application } from '../../../core/index.ts'
import type { UpdateResponse } from '../protocol/update-response.ts'
import { failAssertion, show, snippet, type FailureDetails } from './failure.ts'
import { visibleHtml } from './page-html.ts'

export { failAssertion, show, type FailureDetails } from './failure.ts'

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
  abstract readonly children: Array<{ id: string; name: string }>
  /** The app the component runs in (its routes, for `assertRedirectToRoute`). */
  abstract readonly app: Application
  abstract get(path: string): unknown
  /** What the component reported in the test's requests, by kind (`view`, `rules`), oldest first. */
  abstract observations(kind: string): readonly unknown[]
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
   * The rendered HTML shows the texts in this order (each escaped as
   * `{{value}}` escapes it), as Livewire's `assertSeeInOrder`.
   *
   * @example `list.assertSeeInOrder(['Buy milk', 'Walk the dog'])`
   */
  assertSeeInOrder(texts: Array<string | number>): this {
    this.checkIdle()
    const html = visibleHtml(this.html)
    let from = 0
    let previous: string | undefined
    for (const piece of texts) {
      const wanted = Handlebars.escapeExpression(String(piece))
      const at = html.indexOf(wanted, from)
      if (at === -1) {
        const where = previous === undefined ? '' : html.includes(wanted) ? `, but it is only before ${show(previous)}` : ', but it is not there at all'
        this.#fail(
          `Expected to see ${show(String(piece))}${previous === undefined ? '' : ` after ${show(previous)}`} in the ${this.name} component${where || ', but it is not there'}.\nThe HTML: ${snippet(html, wanted)}`,
          {
            actual: html,
            expected: texts,
            operator: 'assertSeeInOrder',
          },
        )
      }
      from = at + wanted.length
      previous = String(piece)
    }
    return this
  }

  /**
   * A component of this name is rendered inside this one (a child kept from
   * an earlier render counts, as the browser still shows it), as Livewire's
   * `assertSeeLivewire`.
   *
   * @example `page.assertSeeComponent('todo-item')`
   */
  assertSeeComponent(name: string): this {
    this.checkIdle()
    const names = this.#nested()
    if (!names.includes(name))
      this.#fail(`Expected the ${this.name} component to render a "${name}" component, but it renders ${names.length === 0 ? 'none' : show(names)}.`, {
        actual: names,
        expected: name,
        operator: 'assertSeeComponent',
      })
    return this
  }

  /** No component of this name is rendered inside this one. @example `page.call('close').assertDontSeeComponent('modal')` */
  assertDontSeeComponent(name: string): this {
    this.checkIdle()
    const names = this.#nested()
    if (names.includes(name))
      this.#fail(`Expected the ${this.name} component not to render a "${name}" component, but it does: ${show(names)}.`, {
        actual: names,
        expected: name,
        operator: 'assertDontSeeComponent',
      })
    return this
  }

  /**
   * The data the view last rendered with (its state, computed properties,
   * `errors`, what `with()` or `render()` gave) has `key`; with a value, one
   * deeply equal to it; with a function, one it accepts.
   *
   * @example `list.assertViewHas('remaining', 2).assertViewHas('todos', (todos) => Array.isArray(todos))`
   */
  assertViewHas(key: string, ...expected: [] | [unknown]): this {
    this.checkIdle()
    const data = this.observations('view').at(-1) as Record<string, unknown> | undefined
    if (data === undefined)
      return this.#fail(`Expected the view to have ${show(key)}, but the ${this.name} component has not rendered in this test.`, { operator: 'assertViewHas' })
    if (!Object.hasOwn(data, key))
      return this.#fail(`Expected the view to have ${show(key)}, but its data has: ${Object.keys(data).join(', ')}.`, {
        expected: key,
        operator: 'assertViewHas',
      })
    if (expected.length === 0) return this
    const [value] = expected
    const actual = data[key]
    const ok = typeof value === 'function' ? Boolean((value as (actual: unknown) => unknown)(actual)) : isDeepStrictEqual(actual, value)
    if (!ok)
      this.#fail(`Expected the view's ${key} ${typeof value === 'function' ? 'to pass the given check' : `to be ${show(value)}`}, but it is ${show(actual)}.`, {
        actual,
        expected: value,
        operator: 'assertViewHas',
      })
    return this
  }

  /** The names of the components rendered inside this one: its children, and those in its HTML (their own children too). */
  #nested(): string[] {
    const inHtml = [...this.html.matchAll(/\swire:name="([^"]*)"/g)].slice(1).map((match) => match[1]!)
    return [...new Set([...this.children.map((child) => child.name), ...inHtml])]
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

  #fail(message: string, details: FailureDetails): never {
    return failAssertion(this, message, details)
  }

  /**
   * Adds an assertion that a feature brings (`assertRedirect` from redirects):
   * it checks that nothing is still running, then runs `check`, and returns the
   * test so that more can follow. The feature declares it on this class too
   * (declaration merging). Called by the kernel as it installs the feature.
   *
   * @example
   * ```ts
   * ComponentAssertions.addAssertion('assertNoRedirect', function () {
   *   if (this.redirect !== undefined) failAssertion(this, 'Expected no redirect.', { operator: 'assertNoRedirect' })
   * })
   * ```
   */
  static addAssertion(name: string, check: (this: ComponentAssertions, ...args: any[]) => void): void {
    if (Object.prototype.hasOwnProperty.call(ComponentAssertions.prototype, name))
      throw new KilnError(`The component test assertion ${name}() is defined twice.`, { code: 'E_COMP_FEATURE_METHOD' })
    Object.defineProperty(ComponentAssertions.prototype, name, {
      value: function (this: ComponentAssertions, ...args: unknown[]) {
        this.checkIdle()
        check.apply(this, args)
        return this
      },
      writable: true,
      configurable: true,
    })
  }
}
