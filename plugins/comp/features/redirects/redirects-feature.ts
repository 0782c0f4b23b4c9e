import type { FeatureProvider } from '../../extension/feature-provider.ts'
import { runOf } from '../../component-run.ts'
import type { Component } from '../../component.ts'
import { checkedRedirect } from './checked-redirect.ts'
import { redirectAssertions } from './redirect-assertions.ts'

declare module '../../component.ts' {
  interface Component {
    /**
     * Sends the browser to another page after this response: a page of this
     * site, or another site's with `{ away: true }`. Only http(s) addresses;
     * anything else is refused with 400. `{ navigate: true }` makes it a
     * `wire:navigate` visit (no full page load); without the option, a page
     * that has `wire:navigate` links visits that way too.
     *
     * @example
     * ```ts
     * this.redirect('/todos')
     * this.redirect('/todos', { navigate: true })
     * this.redirect('https://billing.example.com/portal', { away: true })
     * ```
     */
    redirect(url: string, options?: { away?: boolean; navigate?: boolean }): void
  }
}

/**
 * Redirects, besides their hook: `this.redirect()` on every component, and
 * `assertRedirect`/`assertNoRedirect` on a component under test.
 *
 * @example
 * ```ts
 * installFeatures([redirectsFeature])
 * ```
 */
export const redirectsFeature: FeatureProvider = {
  name: 'redirects',
  assertions: redirectAssertions,
  methods: {
    redirect(this: Component, url: string, options: { away?: boolean; navigate?: boolean } = {}) {
      const run = runOf(this)
      const here = run.ctx?.request.url ?? new URL('http://localhost/')
      run.redirect = checkedRedirect(String(url), here, options.away === true)
      run.navigate = options.navigate === true
    },
  },
}
