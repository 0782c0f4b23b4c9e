import type { ComponentHook } from '../../lifecycle/component-hook.ts'

/**
 * Redirects: `this.redirect(url)` (checked by `checkedRedirect`) becomes
 * the `redirect` effect, which the browser follows; with `{ navigate: true }`,
 * `redirectUsingNavigate` too, and the browser makes it a `wire:navigate` visit.
 *
 * @example
 * ```ts
 * const features = [redirects, ...]
 * ```
 */
export const redirects: ComponentHook = {
  name: 'redirects',
  dehydrate(c) {
    if (c.run.redirect) c.effects.redirect = c.run.redirect
    if (c.run.redirect && c.run.navigate) c.effects.redirectUsingNavigate = true
  },
}
