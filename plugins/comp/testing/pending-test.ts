import { fileURLToPath } from 'node:url'
import { KilnError, type Application } from '../../../core/index.ts'
import type { ComponentTest } from '../testing.ts'
import type { SeeText } from './assertions.ts'

/** Sends one update; the chain's own steps use it (they need no check for a forgotten await). @example `test[SEND]({ updates: [], calls: [] })` */
export const SEND: unique symbol = Symbol('comp.test.send')
/** Runs an assertion from inside a chain, where the chain's own steps count as running. @example `test[IN_CHAIN](() => test.assertSet('a', 1))` */
export const IN_CHAIN: unique symbol = Symbol('comp.test.in-chain')
/** Counts the steps still to run, so that touching the component meanwhile (a forgotten `await`) throws. @example `test[BUSY](1)` */
export const BUSY: unique symbol = Symbol('comp.test.busy')

/** What a step of a chain may do with the component: send an update, or assert. */
export interface ChainTarget {
  [SEND](body: { updates: Array<[string, unknown]>; calls: Array<{ method: string; params: unknown[] }> }): Promise<unknown>
  [IN_CHAIN](assert: () => unknown): void
  [BUSY](delta: number): void
}

/**
 * A chain of steps on a component under test: each `set`, `call`,
 * `dispatch` or `refresh` is a real update (signed, CSRF-checked), each
 * assertion checks what the update before it left. The steps start at once,
 * in order; `await` the chain to wait for them, and it resolves with the
 * {@link ComponentTest}, or rejects with the first failure, reported at the
 * line that asked for it.
 *
 * A chain nobody awaits cannot pass quietly: its failure is an unhandled
 * rejection (a failed run in ava, node:test and vitest); closing the app
 * waits for it and throws its failure (so `t.teardown(() => app.close())`
 * fails the test even when the run would end first); and touching the
 * component again while it runs throws.
 *
 * @example
 * ```ts
 * const counter = await testComponent(client, 'counter').set('count', 2).call('increment').assertSet('count', 3).assertSee('3')
 * ```
 */
export class PendingComponentTest implements PromiseLike<ComponentTest> {
  #done: Promise<ComponentTest>
  readonly #test: ComponentTest | undefined
  readonly #app: Application

  /** @example `new PendingComponentTest(ComponentTest.mount(client, 'counter'), app)` */
  constructor(start: ComponentTest | Promise<ComponentTest>, app: Application) {
    this.#test = 'then' in start ? undefined : start
    this.#done = Promise.resolve(start)
    this.#app = app
    watch(app, this)
  }

  /** Sets a property, as `wire:model` does, and renders. @example `testComponent(client, 'todo-form').set('title', 'Buy milk')` */
  set(path: string, value: unknown): this
  /** Sets several properties in one update. @example `form.set({ title: 'Buy milk', due: '2030-01-01' })` */
  set(values: Record<string, unknown>): this
  set(path: string | Record<string, unknown>, value?: unknown): this {
    const updates: Array<[string, unknown]> = typeof path === 'string' ? [[path, value]] : Object.entries(path)
    return this.#step((test) => test[SEND]({ updates, calls: [] }))
  }

  /** Calls a method with parameters. @example `counter.call('add', 5)` */
  call(method: string, ...params: unknown[]): this {
    return this.#step((test) => test[SEND]({ updates: [], calls: [{ method, params }] }))
  }

  /** Delivers an event to the component's `@on` listeners. @example `stats.dispatch('todo-added', { title: 'x' })` */
  dispatch(event: string, data: Record<string, unknown> = {}): this {
    return this.call('$event', event, data)
  }

  /** Renders again with the current state. @example `list.refresh()` */
  refresh(): this {
    return this.call('$refresh')
  }

  /** See {@link ComponentTest.assertSee}. @example `counter.call('increment').assertSee('1')` */
  assertSee(text: SeeText): this {
    return this.#assert((test) => test.assertSee(text))
  }

  /** See {@link ComponentTest.assertDontSee}. @example `list.call('clear').assertDontSee('Buy milk')` */
  assertDontSee(text: SeeText): this {
    return this.#assert((test) => test.assertDontSee(text))
  }

  /** See {@link ComponentTest.assertSeeHtml}. @example `form.call('save').assertSeeHtml('<p class="error">')` */
  assertSeeHtml(html: SeeText): this {
    return this.#assert((test) => test.assertSeeHtml(html))
  }

  /** See {@link ComponentTest.assertDontSeeHtml}. @example `form.call('save').assertDontSeeHtml('<p class="error">')` */
  assertDontSeeHtml(html: SeeText): this {
    return this.#assert((test) => test.assertDontSeeHtml(html))
  }

  /** See {@link ComponentTest.assertSeeInOrder}. @example `list.call('sort').assertSeeInOrder(['Apples', 'Pears'])` */
  assertSeeInOrder(texts: Array<string | number>): this {
    return this.#assert((test) => test.assertSeeInOrder(texts))
  }

  /** See {@link ComponentTest.assertSeeComponent}. @example `page.call('open').assertSeeComponent('modal')` */
  assertSeeComponent(name: string): this {
    return this.#assert((test) => test.assertSeeComponent(name))
  }

  /** See {@link ComponentTest.assertDontSeeComponent}. @example `page.call('close').assertDontSeeComponent('modal')` */
  assertDontSeeComponent(name: string): this {
    return this.#assert((test) => test.assertDontSeeComponent(name))
  }

  /** See {@link ComponentTest.assertViewHas}. @example `list.call('add').assertViewHas('remaining', 1)` */
  assertViewHas(key: string, ...expected: [] | [unknown]): this {
    return this.#assert((test) => test.assertViewHas(key, ...expected))
  }

  /** See {@link ComponentTest.assertSet}. @example `counter.call('increment').assertSet('count', 1)` */
  assertSet(path: string, value: unknown): this {
    return this.#assert((test) => test.assertSet(path, value))
  }

  /** See {@link ComponentTest.assertNotSet}. @example `counter.call('increment').assertNotSet('count', 0)` */
  assertNotSet(path: string, value: unknown): this {
    return this.#assert((test) => test.assertNotSet(path, value))
  }

  /** See {@link ComponentTest.assertCount}. @example `list.call('add').assertCount('todos', 1)` */
  assertCount(path: string, count: number): this {
    return this.#assert((test) => test.assertCount(path, count))
  }

  /** See {@link ComponentTest.assertStatus}. @example `counter.call('mount').assertStatus(403)` */
  assertStatus(status: number): this {
    return this.#assert((test) => test.assertStatus(status))
  }

  /** Waits for every step: the component, or the first failure. @example `const counter = await testComponent(client, 'counter')` */
  then<A = ComponentTest, B = never>(
    onFulfilled?: ((test: ComponentTest) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    unwatch(this.#app, this)
    return this.#done.then(onFulfilled, onRejected)
  }

  /** As a promise's `catch`. @example `await counter.call('add', 1).catch(() => undefined)` */
  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<ComponentTest | B> {
    unwatch(this.#app, this)
    return this.#done.catch(onRejected)
  }

  /** As a promise's `finally`. @example `await counter.call('add', 1).finally(() => app.close())` */
  finally(onFinally?: (() => void) | null): Promise<ComponentTest> {
    unwatch(this.#app, this)
    return this.#done.finally(onFinally)
  }

  /** Waits for every step, steps added meanwhile too, and gives the failure if there is one (never rejects). */
  async outcome(): Promise<{ failure?: unknown }> {
    let done: Promise<ComponentTest>
    do {
      done = this.#done
      const failed = await done.then(
        (): { failure: unknown } | undefined => undefined,
        (error: unknown) => ({ failure: error }),
      )
      if (failed) return failed
    } while (done !== this.#done)
    return {}
  }

  /**
   * Adds a feature's assertion to the chain (see `ComponentAssertions.addAssertion`): a step that runs it on the
   * test once the steps before it are done. Called by the kernel as it installs the feature.
   *
   * @example `PendingComponentTest.addAssertion('assertRedirect')`
   */
  static addAssertion(name: string): void {
    Object.defineProperty(PendingComponentTest.prototype, name, {
      value: function (this: PendingComponentTest, ...args: unknown[]) {
        return this.#assert((test) => (test as unknown as Record<string, (...values: unknown[]) => unknown>)[name]!(...args))
      },
      writable: true,
      configurable: true,
    })
  }

  #assert(check: (test: ComponentTest) => unknown): this {
    return this.#step((test) => test[IN_CHAIN](() => check(test)))
  }

  #step(run: (test: ComponentTest) => unknown): this {
    // Where the step was asked for: a failure is reported at the test's line, not inside the chain.
    const origin = new Error()
    const test = this.#test
    test?.[BUSY](1)
    const settle = () => test?.[BUSY](-1)
    this.#done = this.#done
      .then(async (current) => {
        try {
          await run(current)
        } catch (error) {
          throw locate(error, origin)
        }
        return current
      })
      .then(
        (current) => (settle(), current),
        (error: unknown) => {
          settle()
          throw error
        },
      )
    return this
  }
}

// The chain's own files: their frames are dropped from a failure's stack.
const OWN_FILES = [fileURLToPath(new URL('./', import.meta.url)), fileURLToPath(new URL('../testing.', import.meta.url))]

/** The failure, its stack pointing at the chain's call in the test (without the chain's own frames). */
function locate(error: unknown, origin: Error): unknown {
  if (!(error instanceof Error) || error.name !== 'AssertionError' || !origin.stack) return error
  const frames = origin.stack
    .split('\n')
    .slice(1)
    .filter((frame) => !OWN_FILES.some((file) => frame.includes(file)))
  error.stack = `${String(error)}\n${frames.join('\n')}`
  return error
}

// The chains of each app that nobody has awaited yet: closing the app waits for them.
const unawaited = new WeakMap<Application, Set<PendingComponentTest>>()

function watch(app: Application, chain: PendingComponentTest): void {
  let chains = unawaited.get(app)
  if (!chains) {
    const open = new Set<PendingComponentTest>()
    unawaited.set(app, open)
    chains = open
    // Registered after the app's own hooks, so it runs before them: the chains still have a database and sessions.
    app.terminating(async () => {
      const failures = (await Promise.all([...open].map((pending) => pending.outcome()))).filter((outcome) => 'failure' in outcome)
      open.clear()
      if (failures.length > 0) {
        const first = failures[0]!.failure
        throw new KilnError(
          `${failures.length === 1 ? 'A component test chain was' : `${failures.length} component test chains were`} never awaited, and failed: ${first instanceof Error ? first.message : String(first)}`,
          { code: 'E_COMP_TEST', cause: first },
        )
      }
    })
  }
  chains.add(chain)
}

function unwatch(app: Application, chain: PendingComponentTest): void {
  unawaited.get(app)?.delete(chain)
}
