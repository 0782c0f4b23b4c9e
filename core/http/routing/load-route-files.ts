import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Application } from '../../application/application.ts'
import { KilnError } from '../../support/errors.ts'
import type { Router } from './router.ts'

/** A route file's default export. */
export type RouteFile = (router: Router, app: Application) => void | Promise<void>

/**
 * Declares a route file. The function runs once per application, so test apps
 * each get their routes; the `Route` facade and the `router` argument are the same.
 *
 * @example
 * ```ts
 * // routes/api.ts
 * export default defineRoutes((Route) => {
 *   Route.get('/user', ({ request }) => request.user()).middleware(['auth:tok'])
 * })
 * ```
 */
export function defineRoutes(fn: RouteFile): RouteFile {
  return fn
}

/**
 * Loads `routes/<name>.ts` (or `.js`) under the app root with `group` as every
 * route's first middleware group. Missing files are skipped.
 *
 * @example
 * ```ts
 * await loadRouteFile(app, 'web', 'web')
 * await loadRouteFile(app, 'api', 'api')
 * ```
 */
export async function loadRouteFile(app: Application, name: string, group?: string): Promise<boolean> {
  const file = ['ts', 'js', 'mjs'].map((ext) => join(app.root, 'routes', `${name}.${ext}`)).find((f) => existsSync(f))
  if (!file) return false
  const mod = (await import(pathToFileURL(file).href)) as { default?: unknown }
  if (typeof mod.default !== 'function') {
    throw new KilnError(`routes/${name} must default-export a function.`, { hint: 'Wrap the routes in `export default defineRoutes((Route) => { ... })`.' })
  }
  const router = app.service('router')
  const previous = router.defaultGroup
  router.defaultGroup = group
  try {
    await (mod.default as RouteFile)(router, app)
  } finally {
    router.defaultGroup = previous
  }
  return true
}
