import type { ComponentHook } from '../../lifecycle/component-hook.ts'

/**
 * Redirects: `this.redirect(url)` (checked by `checkedRedirect`) becomes
 * the `redirect` effect, which the browser follows.
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
  },
}
