import { HttpException } from '../http/errors/http-exception.ts'
import type { HttpContext } from '../http/pipeline/http-context.ts'
import { middlewareNow, type Middleware, type NextNow } from '../http/pipeline/middleware.ts'
import { redirect } from '../http/responses/to-response.ts'
import { isPromiseLike } from '../support/promise-like.ts'
import type { AuthManager } from './auth-manager.ts'
import type { AuthUser } from './contracts.ts'

/**
 * `auth` / `auth:<guard>,<guard>`: the first guard that finds a user wins; it
 * becomes `request.user()`. Otherwise API and JSON requests get 401
 * `{"message":"Unauthenticated."}`, and browser navigations are redirected to
 * the `login` route when there is one (401 otherwise).
 *
 * @example
 * ```ts
 * Route.get('/dashboard', handler).middleware(['auth'])
 * Route.get('/user', handler).middleware(['auth:tok'])
 * ```
 */
export const authenticate: Middleware = middlewareNow((ctx, next, guards) =>
  firstGuard(ctx, next, guards.length > 0 ? guards : [manager(ctx).defaultGuard()], 0),
)

/** Tries the guards from `index` on; without a promise while each guard can tell at once (`userNow`). */
function firstGuard(ctx: HttpContext, next: NextNow, names: readonly string[], index: number): unknown {
  for (let i = index; i < names.length; i++) {
    const name = names[i]!
    const found = ctx.auth.userNow(name)
    if (isPromiseLike(found)) return Promise.resolve(found).then((user) => (user ? admit(ctx, next, name, user) : firstGuard(ctx, next, names, i + 1)))
    if (found) return admit(ctx, next, name, found)
  }
  return unauthenticated(ctx)
}

function admit(ctx: HttpContext, next: NextNow, name: string, user: AuthUser): Response | Promise<Response> {
  ctx.auth.guardName = name
  ctx.request.setUser(user)
  return next()
}

/**
 * `guest` / `guest:<guard>`: only for visitors who are not logged in (login
 * and register pages); a logged-in user is redirected to
 * `auth.redirect_authenticated` (default `/`).
 *
 * @example
 * ```ts
 * Route.get('/login', showLogin).middleware(['guest']).name('login')
 * ```
 */
export const guest: Middleware = async (ctx, next, guards) => {
  const names = guards.length > 0 ? guards : [manager(ctx).defaultGuard()]
  for (const name of names) {
    if (await ctx.auth.check(name)) {
      if (ctx.request.expectsJson()) throw new HttpException(409, 'Already authenticated.')
      return redirect(ctx.app.urls.to(ctx.app.config.get('auth.redirect_authenticated', '/')))
    }
  }
  return next()
}

/**
 * Fills `request.user()` from the default guard when it can, without
 * requiring a user: part of the `web` group, so views and channel
 * authorisation see the logged-in user on every browser route.
 *
 * @example
 * ```ts
 * app.middleware.appendToGroup('web', initializeAuth)
 * ```
 */
export const initializeAuth: Middleware = middlewareNow((ctx, next) => {
  // Without a promise when the guard can tell at once (a guest): it runs on every `web` request.
  const found = ctx.auth.userNow()
  if (isPromiseLike(found)) {
    return Promise.resolve(found).then((user) => {
      if (user) ctx.request.setUser(user)
      return next()
    })
  }
  if (found) ctx.request.setUser(found)
  return next()
})

function unauthenticated(ctx: HttpContext): Response {
  const wantsHtml = ctx.request.isNavigation()
  if (wantsHtml && ctx.app.router.has('login')) return redirect(ctx.app.urls.route('login'))
  throw new HttpException(401, 'Unauthenticated.')
}

function manager(ctx: HttpContext): AuthManager {
  return ctx.app.service('auth')
}
