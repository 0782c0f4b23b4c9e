import { isDeepStrictEqual } from 'node:util'
import type { FeatureProvider } from '../../extension/feature-provider.ts'
import { failAssertion, show, type ComponentAssertions, type TestDispatch } from '../../testing/assertions.ts'

declare module '../../testing/assertions.ts' {
  interface ComponentAssertions {
    /**
     * The last update dispatched the event; with `params`, one whose data has
     * those values (other keys may be there too); with a function, one it
     * accepts.
     *
     * @example `form.assertDispatched('todo-added', { title: 'Buy milk' })` or `form.assertDispatched('todo-added', (params) => params.title !== '')`
     */
    assertDispatched(name: string, params?: Record<string, unknown> | ((params: Record<string, unknown>, dispatch: TestDispatch) => unknown)): this

    /** The last update did not dispatch the event. @example `form.assertNotDispatched('todo-added')` */
    assertNotDispatched(name: string): this
  }
}

declare module '../../testing/pending-test.ts' {
  interface PendingComponentTest {
    /** See {@link ComponentAssertions.assertDispatched}. */
    assertDispatched(name: string, params?: Record<string, unknown> | ((params: Record<string, unknown>, dispatch: TestDispatch) => unknown)): this

    /** See {@link ComponentAssertions.assertNotDispatched}. */
    assertNotDispatched(name: string): this
  }
}

/** The events the last update dispatched, as a failure message shows them. */
function shownDispatches(test: ComponentAssertions): string {
  return test.dispatches.length === 0 ? 'no events' : show(test.dispatches.map(({ name, params }) => ({ name, params })))
}

/**
 * What events add to a component under test: `assertDispatched` and `assertNotDispatched`, as Livewire's.
 *
 * @example
 * ```ts
 * const feature: FeatureProvider = { name: 'events', assertions: eventAssertions }
 * ```
 */
export const eventAssertions: FeatureProvider['assertions'] = {
  assertDispatched(
    this: ComponentAssertions,
    name: string,
    params?: Record<string, unknown> | ((params: Record<string, unknown>, dispatch: TestDispatch) => unknown),
  ) {
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
      failAssertion(this, `Expected "${name}" to be dispatched${detail}, but the last update dispatched ${shownDispatches(this)}.`, {
        actual: this.dispatches,
        operator: 'assertDispatched',
      })
    }
  },

  assertNotDispatched(this: ComponentAssertions, name: string) {
    if (this.dispatches.some((dispatch) => dispatch.name === name))
      failAssertion(this, `Expected "${name}" not to be dispatched, but the last update dispatched ${shownDispatches(this)}.`, {
        actual: this.dispatches,
        operator: 'assertNotDispatched',
      })
  },
}
