import type { FeatureProvider } from '../../extension/feature-provider.ts'
import { failAssertion, show, type ComponentAssertions } from '../../testing/assertions.ts'

declare module '../../testing/assertions.ts' {
  interface ComponentAssertions {
    /** The last update redirected: anywhere, to this address, or to one matching a pattern. @example `form.assertRedirect('/todos')` */
    assertRedirect(url?: string | RegExp): this

    /** The last update did not redirect. @example `form.assertNoRedirect()` */
    assertNoRedirect(): this

    /**
     * The last update redirected to the named route's URL (with its
     * parameters), as `route(name, params)` builds it; an absolute address of
     * the site's own host counts as its path.
     *
     * @example `form.assertRedirectToRoute('posts.show', { post: 1 })`
     */
    assertRedirectToRoute(name: string, params?: Record<string, string | number | boolean>): this
  }
}

declare module '../../testing/pending-test.ts' {
  interface PendingComponentTest {
    /** See {@link ComponentAssertions.assertRedirect}. */
    assertRedirect(url?: string | RegExp): this

    /** See {@link ComponentAssertions.assertNoRedirect}. */
    assertNoRedirect(): this

    /** See {@link ComponentAssertions.assertRedirectToRoute}. */
    assertRedirectToRoute(name: string, params?: Record<string, string | number | boolean>): this
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

  assertRedirectToRoute(this: ComponentAssertions, name: string, params: Record<string, string | number | boolean> = {}) {
    const urls = this.app.service('url')
    let expected: string
    try {
      expected = urls.route(name, params)
    } catch (error) {
      return failAssertion(this, `Expected a redirect to the route ${show(name)}, but ${(error as Error).message}`, {
        expected: name,
        operator: 'assertRedirectToRoute',
      })
    }
    const actual = this.redirect
    // The same address written as a path or in full: the site's host name (a test's requests go to localhost, whatever
    // port APP_URL says), then the path, query and fragment.
    const same = actual !== undefined && sameAddress(new URL(actual, urls.appUrl), new URL(expected, urls.appUrl))
    if (!same)
      failAssertion(
        this,
        `Expected a redirect to the route ${show(name)} (${show(expected)}), but ${actual === undefined ? 'the last update did not redirect' : `it went to ${show(actual)}`}.`,
        { actual, expected, operator: 'assertRedirectToRoute' },
      )
  },
}

function sameAddress(a: URL, b: URL): boolean {
  return a.hostname === b.hostname && a.pathname === b.pathname && a.search === b.search && a.hash === b.hash
}
