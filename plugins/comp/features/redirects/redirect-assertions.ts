import type { FeatureProvider } from '../../extension/feature-provider.ts'
import { failAssertion, show, type ComponentAssertions } from '../../testing/assertions.ts'

declare module '../../testing/assertions.ts' {
  interface ComponentAssertions {
    /** The last update redirected: anywhere, to this address, or to one matching a pattern. @example `form.assertRedirect('/todos')` */
    assertRedirect(url?: string | RegExp): this

    /** The last update did not redirect. @example `form.assertNoRedirect()` */
    assertNoRedirect(): this
  }
}

declare module '../../testing/pending-test.ts' {
  interface PendingComponentTest {
    /** See {@link ComponentAssertions.assertRedirect}. */
    assertRedirect(url?: string | RegExp): this

    /** See {@link ComponentAssertions.assertNoRedirect}. */
    assertNoRedirect(): this
  }
}

/**
 * What redirects add to a component under test: `assertRedirect` and `assertNoRedirect`, as Livewire's.
 *
 * @example
 * ```ts
 * const feature: FeatureProvider = { name: 'redirects', assertions: redirectAssertions }
 * ```
 */
export const redirectAssertions: FeatureProvider['assertions'] = {
  assertRedirect(this: ComponentAssertions, url?: string | RegExp) {
    const actual = this.redirect
    const ok = actual !== undefined && (url === undefined || (typeof url === 'string' ? actual === url : url.test(actual)))
    if (!ok) {
      const target = url === undefined ? '' : typeof url === 'string' ? ` to ${show(url)}` : ` to an address matching ${url}`
      failAssertion(this, `Expected a redirect${target}, but ${actual === undefined ? 'the last update did not redirect' : `it went to ${show(actual)}`}.`, {
        actual,
        expected: url,
        operator: 'assertRedirect',
      })
    }
  },

  assertNoRedirect(this: ComponentAssertions) {
    if (this.redirect !== undefined)
      failAssertion(this, `Expected no redirect, but the last update went to ${show(this.redirect)}.`, { actual: this.redirect, operator: 'assertNoRedirect' })
  },
}
