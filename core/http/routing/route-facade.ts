import { currentApp } from '../../application/current-app.ts'
import type { Router } from './router.ts'

/**
 * The router of the application in scope (being booted, or serving this
 * request). Use it in route files and plugins.
 *
 * @example
 * ```ts
 * import { Route, defineRoutes } from 'kiln-framework'
 *
 * export default defineRoutes(() => {
 *   Route.get('/', () => 'Hello')
 * })
 * ```
 */
export const Route: Router = new Proxy({} as Router, {
  get(_target, key) {
    const router = currentApp().service('router') as unknown as Record<string | symbol, unknown>
    const value = router[key]
    return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(router) : value
  },
})

/**
 * The browser URL of a named route, with `APP_BASE_PATH`.
 *
 * @example
 * ```ts
 * route('posts.show', { post: 1 }) // '/posts/1'
 * ```
 */
export function route(name: string, params: Record<string, string | number | boolean> = {}, options: { absolute?: boolean } = {}): string {
  return currentApp().service('url').route(name, params, options)
}

/**
 * A browser URL for a path, with `APP_BASE_PATH`.
 *
 * @example
 * ```ts
 * url('/comp/comp.js') // '/sub/comp/comp.js' when APP_BASE_PATH=/sub
 * ```
 */
export function url(path: string, options: { absolute?: boolean } = {}): string {
  return currentApp().service('url').to(path, options)
}
