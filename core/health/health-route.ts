import type { Application } from '../application/application.ts'
import type { HttpContext } from '../http/pipeline/http-context.ts'
import { KilnError } from '../support/errors.ts'
import type { HealthChecks } from './health-checks.ts'

/** The query parameter that turns the health route into the readiness check: `GET /up?ready`. */
export const READY_PARAMETER = 'ready'

const NO_STORE = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }

/**
 * Adds the health route at `path` (`http.health`): `GET <path>` answers 200
 * `{"message":"Up."}` once the app has booted, with no session, no CSRF,
 * no database and no throttle (the route is in no middleware group, only the
 * global one); `GET <path>?ready` runs the readiness checks and answers 200,
 * or 503 naming what is down. The request log writes its answers at `debug`.
 * A route of the app on the same path stops the boot: one of the two would
 * never be reached.
 *
 * @example
 * ```ts
 * healthRoute(app, '/up', app.service('health'))
 * await app.request('/up') // 200 {"message":"Up."}
 * await app.request('/up?ready') // 200, or 503 {"message":"Not ready: session is down.","checks":{...}}
 * ```
 */
export function healthRoute(app: Application, path: string, checks: HealthChecks): void {
  const router = app.router
  const taken = router.routes().find((route) => route.path === path && route.methods.includes('GET'))
  if (taken)
    throw new KilnError(`config/http.ts puts the health route at ${path}, and the app has its own GET ${path} route: one of the two would never answer.`, {
      code: 'E_HEALTH_PATH',
      hint: `Remove that route, or give \`health\` another path in config/http.ts.`,
    })
  router.group({ section: 'Health' }, () => {
    router.get(path, (ctx) => answer(ctx, checks)).quiet()
  })
}

/** Not async for the liveness answer: it is known at once, and a probe every second or two should cost nothing. */
function answer(ctx: HttpContext, checks: HealthChecks): Response | Promise<Response> {
  if (!ctx.request.url.searchParams.has(READY_PARAMETER)) return Response.json({ message: 'Up.' }, { headers: NO_STORE })
  return checks.run().then(({ ready, checks: results }) => {
    if (ready) return Response.json({ message: 'Ready.', checks: results }, { headers: NO_STORE })
    const down = Object.keys(results).filter((name) => results[name] === 'down')
    const message = `Not ready: ${down.join(', ')} ${down.length === 1 ? 'is' : 'are'} down.`
    return Response.json({ message, checks: results }, { status: 503, headers: { ...NO_STORE, 'retry-after': '5' } })
  })
}
