import type { Router } from './router.ts'

/**
 * Builds browser-facing URLs: it adds `APP_BASE_PATH` (routes are declared
 * without it) and, when asked, the app's origin.
 *
 * @example
 * ```ts
 * // APP_BASE_PATH=/shop, APP_URL=https://example.com
 * urls.route('cart.show')                 // '/shop/cart'
 * urls.to('/login', { absolute: true })   // 'https://example.com/shop/login'
 * ```
 */
export class UrlGenerator {
  constructor(
    private readonly router: Router,
    readonly basePath: string,
    readonly appUrl: string,
  ) {}

  /** A path under the base path. @example `urls.to('/comp/comp.js')` */
  to(path: string, options: { absolute?: boolean } = {}): string {
    const full = this.basePath + (path.startsWith('/') ? path : `/${path}`)
    const prefixed = full.length > 1 && full.endsWith('/') && path !== '/' ? full.slice(0, -1) : full
    return options.absolute ? new URL(prefixed, this.appUrl).toString() : prefixed
  }

  /** A named route's URL. @example `urls.route('posts.show', { post: 1 })` */
  route(name: string, params: Record<string, string | number | boolean> = {}, options: { absolute?: boolean } = {}): string {
    return this.to(this.router.path(name, params), options)
  }

  /** Removes the base path from a browser path; other paths are returned as is. @example `urls.strip('/shop/cart') // '/cart'` */
  strip(path: string): string {
    if (!this.basePath) return path
    if (path === this.basePath) return '/'
    return path.startsWith(this.basePath + '/') ? path.slice(this.basePath.length) : path
  }
}
