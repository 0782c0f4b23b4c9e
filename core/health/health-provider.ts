import { definePlugin } from '../application/define-plugin.ts'
import { HealthChecks } from './health-checks.ts'
import { healthRoute } from './health-route.ts'

declare module 'kiln-framework' {
  interface KilnServices {
    /** The readiness checks: the kernel's providers, plugins and drivers add theirs. */
    health: HealthChecks
  }
}

/**
 * The kernel's health provider: the readiness registry
 * (`app.service('health')`, registered early so the providers after it can
 * add their checks), and the health route at `http.health` (`/up` in the
 * starter) once every route file has loaded.
 */
export const healthProvider = definePlugin({
  name: 'kiln:health',
  services: {
    health: { make: (app) => new HealthChecks(app.logger, app.root), token: HealthChecks, close: (checks) => checks.close() },
  },
  boot(app) {
    const path = app.config.get<string | false>('http.health', false)
    // After the http provider's own booted hook, which loads the route files: a route of the app on the same path is found.
    if (path) app.booted(() => healthRoute(app, path, app.service('health')))
  },
})
