import type { FeatureProvider } from '../../extension/feature-provider.ts'
import { scriptDirectives } from './script-blocks.ts'
import { compAssetsHelper, compScriptHelper } from './script-helpers.ts'
import { scriptRoute } from './script-route.ts'

/**
 * Scripts and assets of a component: `@script … @endscript` and
 * `@assets … @endassets` in its view (the preprocessor and the
 * `compScript`/`compAssets` helpers they become), and
 * `GET /comp/scripts/<hash>.js`, where the browser loads a script block as
 * a module (a page under a nonce-only Content-Security-Policy never
 * evaluates a string).
 *
 * @example
 * ```ts
 * installFeatures([scriptsFeature])
 * ```
 */
export const scriptsFeature: FeatureProvider = {
  name: 'scripts',
  register({ app }) {
    app.views.preprocess(scriptDirectives)
    app.views.helper('compScript', compScriptHelper)
    app.views.helper('compAssets', compAssetsHelper)
  },
  boot({ app, services, registry }) {
    app.router.get('/comp/scripts/{file}', scriptRoute(services, registry)).name('comp.scripts')
  },
}
