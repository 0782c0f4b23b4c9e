import type { FeatureProvider } from '../../extension/feature-provider.ts'
import { cloakStyle } from './cloak-style.ts'

/**
 * Cloaking: `@compScripts` prints the style that hides `wire:loading`,
 * `wire:offline`, `wire:dirty` and `wire:cloak` elements until the client
 * has booted.
 *
 * @example
 * ```ts
 * installFeatures([cloakFeature])
 * ```
 */
export const cloakFeature: FeatureProvider = {
  name: 'cloak',
  scripts: { head: cloakStyle },
}
