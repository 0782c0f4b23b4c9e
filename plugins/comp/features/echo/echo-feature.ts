import type { FeatureProvider } from '../../extension/feature-provider.ts'
import { realtimeClientUrl } from './realtime-client.ts'

/**
 * Echo listeners: the boot configuration names the broadcasting plugin's
 * realtime client (`rt`), when the app serves it, for `@on('echo:…')`.
 *
 * @example
 * ```ts
 * installFeatures([echoFeature])
 * ```
 */
export const echoFeature: FeatureProvider = {
  name: 'echo',
  scripts: { config: async (app) => ({ rt: await realtimeClientUrl(app.assets) }) },
}
