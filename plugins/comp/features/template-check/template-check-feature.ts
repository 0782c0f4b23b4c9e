import { formatProblem } from '../../../../core/index.ts'
import type { FeatureProvider } from '../../extension/feature-provider.ts'

/** The checker, loaded when a check runs: an app that serves pages never loads it (nor Handlebars' parser, htmlparser2, TypeScript). */
const checker = () => import('./check-templates.ts')

/**
 * Templates checked against their class: `kiln check` (and so `kiln
 * build`) runs the check over every registered component; under `kiln dev`
 * each mistake is also a warning once the app has booted (again after each
 * reload), with its file, line and "did you mean".
 *
 * @example
 * ```ts
 * installFeatures([templateCheckFeature])
 * ```
 */
export const templateCheckFeature: FeatureProvider = {
  name: 'template-check',
  register({ app, registry }) {
    app.service('checks').add('component templates', async () => (await checker()).checkComponentTemplates(app, registry))
    // Under `kiln dev` only: other commands of a development app (migrate, make:*) are not slowed by a check
    // they do not need, and tests stay quiet.
    if (!app.dev) return
    const warn = async (only?: string) => {
      try {
        const { checkComponentTemplates } = await checker()
        for (const problem of checkComponentTemplates(app, registry))
          if (only === undefined || problem.file === only) app.logger.warn(`comp: ${formatProblem(problem, app.root)}`)
      } catch (error) {
        // The check is advice: a failure of its own never stops the app.
        app.logger.debug({ err: error }, 'comp: the template check failed')
      }
    }
    // After every plugin booted: the components are discovered and every helper is registered by then. A saved view
    // does not reload the app, only that file: its mistakes are told again.
    app.booted(() => warn())
    app.views.onForget((file) => void warn(file))
  },
}
