import type { Hooks } from 'crossws'
import { FORBIDDEN_KEYS } from '../../support/dot-path.ts'
import { KilnError } from '../../support/errors.ts'
import type { MiddlewareRef } from '../pipeline/middleware.ts'
import { RouteDefinition, type RouteHandler } from './route-definition.ts'

/** Options of `Route.group`. */
export interface GroupOptions {
  prefix?: string
  middleware?: MiddlewareRef[]
  /** Prefix for route names inside the group: `admin.`. */
  as?: string
  /**
   * What the group's routes are for, as a heading: `kiln route:list` lists
   * them under it, apart from the app's own routes. The innermost wins.
   */
  section?: string
}

/** A websocket route: crossws hooks on a path. */
export interface WebSocketRoute {
  path: string
  hooks: Partial<Hooks>
  /** The heading of its group (`GroupOptions.section`). */
  section?: string
}

type Listener = (route: RouteDefinition) => void

/** A method added to the router by a plugin: `this` is the router. */
export type RouteMacro = (this: Router, ...args: any[]) => unknown

/**
 * The types of route macros. A plugin that adds one declares it here with
 * module augmentation, and `Route.<name>(...)` is typed everywhere.
 *
 * @example
 * ```ts
 * declare module 'kiln-framework' {
 *   interface RouterMacros { redirectTo(from: string, to: string): RouteDefinition }
 * }
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface RouterMacros {}

/**
 * The application's routes. Use it through the `Route` facade in route files,
 * or as `app.router`.
 *
 * Paths take `{param}` segments (`{param?}` for optional) and `**` wildcards.
 *
 * @example
 * ```ts
 * Route.get('/', () => view('home'))
 * Route.group({ prefix: '/admin', middleware: ['auth:web'], as: 'admin.' }, () => {
 *   Route.get('/posts/{post}', [PostController, 'show']).name('posts.show')
 * })
 * route('admin.posts.show', { post: 1 }) // '/admin/posts/1'
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- its macro members come from RouterMacros
export class Router {
  private readonly list: RouteDefinition[] = []
  private readonly named = new Map<string, RouteDefinition>()
  private readonly sockets: WebSocketRoute[] = []
  private readonly stack: GroupOptions[] = []
  private readonly listeners: Listener[] = []
  /** The middleware group new routes start with (`web` or `api`), set while a route file loads. */
  defaultGroup: string | undefined

  /**
   * Adds a method to this router (and so to the `Route` facade), for plugins
   * that register a kind of route: the components plugin adds
   * `Route.comp(path, Component)`. Give it a type with module augmentation.
   * Built-in methods cannot be replaced.
   *
   * @example
   * ```ts
   * declare module 'kiln-framework' {
   *   interface RouterMacros { redirectTo(from: string, to: string): RouteDefinition }
   * }
   * app.router.macro('redirectTo', function (from: string, to: string) {
   *   return this.get(from, () => redirect(to))
   * })
   * Route.redirectTo('/old', '/new')
   * ```
   */
  macro(name: string, fn: RouteMacro): this {
    if (!/^[A-Za-z_$][\w$]*$/.test(name) || FORBIDDEN_KEYS.has(name) || name in Router.prototype || Object.prototype.hasOwnProperty.call(this, name)) {
      throw new KilnError(`Cannot add a route macro named "${name}": the router already has a member of that name.`)
    }
    Object.defineProperty(this, name, { value: fn, enumerable: false, configurable: false, writable: false })
    return this
  }

  /** True when a plugin added a macro of that name. @example `router.hasMacro('comp')` */
  hasMacro(name: string): boolean {
    return (
      Object.prototype.hasOwnProperty.call(this, name) &&
      typeof (this as unknown as Record<string, unknown>)[name] === 'function' &&
      !(name in Router.prototype)
    )
  }

  /** @example `Route.get('/posts', handler)` */
  get(path: string, handler: RouteHandler): RouteDefinition {
    return this.add(['GET', 'HEAD'], path, handler)
  }
  /** @example `Route.post('/posts', handler)` */
  post(path: string, handler: RouteHandler): RouteDefinition {
    return this.add(['POST'], path, handler)
  }
  /** @example `Route.put('/posts/{id}', handler)` */
  put(path: string, handler: RouteHandler): RouteDefinition {
    return this.add(['PUT'], path, handler)
  }
  /** @example `Route.patch('/posts/{id}', handler)` */
  patch(path: string, handler: RouteHandler): RouteDefinition {
    return this.add(['PATCH'], path, handler)
  }
  /** @example `Route.delete('/posts/{id}', handler)` */
  delete(path: string, handler: RouteHandler): RouteDefinition {
    return this.add(['DELETE'], path, handler)
  }
  /** @example `Route.options('/posts', handler)` */
  options(path: string, handler: RouteHandler): RouteDefinition {
    return this.add(['OPTIONS'], path, handler)
  }
  /** Every method. @example `Route.any('/webhook', handler)` */
  any(path: string, handler: RouteHandler): RouteDefinition {
    return this.add(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'], path, handler)
  }
  /** Chosen methods. @example `Route.match(['GET', 'POST'], '/search', handler)` */
  match(methods: string[], path: string, handler: RouteHandler): RouteDefinition {
    return this.add(
      methods.map((m) => m.toUpperCase()),
      path,
      handler,
    )
  }

  /**
   * Groups routes under a prefix, middleware and name prefix.
   *
   * @example
   * ```ts
   * Route.group({ prefix: '/api/v1', middleware: ['api'] }, () => { ... })
   * ```
   */
  group(options: GroupOptions, fn: () => void): void {
    this.stack.push(options)
    try {
      fn()
    } finally {
      this.stack.pop()
    }
  }

  /**
   * Serves a websocket endpoint on the app's own server (crossws hooks).
   * Authorise in the `upgrade(request)` hook: throw or return a `Response` to refuse.
   *
   * @example
   * ```ts
   * Route.websocket('/echo', { message(peer, message) { peer.send(message.text()) } })
   * ```
   */
  websocket(path: string, hooks: Partial<Hooks>): WebSocketRoute {
    const section = this.section()
    const route: WebSocketRoute = { path: this.prefixed(path), hooks, ...(section ? { section } : {}) }
    this.sockets.push(route)
    return route
  }

  /** Every route, in registration order. @example `app.router.routes().length` */
  routes(): readonly RouteDefinition[] {
    return this.list
  }

  /** Every websocket route. @example `app.router.websockets()` */
  websockets(): readonly WebSocketRoute[] {
    return this.sockets
  }

  /** The route with that name. @example `router.byName('home')` */
  byName(name: string): RouteDefinition | undefined {
    return this.named.get(name)
  }

  /** True when a route has that name. @example `router.has('login')` */
  has(name: string): boolean {
    return this.named.has(name)
  }

  /** Calls `fn` for every route added, including those already added. @internal used by the HTTP kernel. */
  onRoute(fn: Listener): void {
    this.listeners.push(fn)
    for (const route of this.list) fn(route)
  }

  /**
   * The path of a named route with parameters filled in; extra parameters
   * become the query string. Without the base path (see `UrlGenerator`).
   *
   * @example
   * ```ts
   * router.path('posts.show', { post: 3, tab: 'comments' }) // '/posts/3?tab=comments'
   * ```
   */
  path(name: string, params: Record<string, string | number | boolean> = {}): string {
    const route = this.named.get(name)
    if (!route) throw new KilnError(`No route is named "${name}".`)
    const rest: Record<string, string> = {}
    for (const [k, v] of Object.entries(params)) rest[k] = String(v)
    let path = route.path.replace(/\{(\w+)(\?)?\}|:(\w+)/g, (_m, a: string | undefined, optional: string | undefined, b: string | undefined) => {
      const key = (a ?? b)!
      const value = rest[key]
      delete rest[key]
      if (value === undefined) {
        if (optional) return ''
        throw new KilnError(`Route "${name}" needs the parameter "${key}".`)
      }
      return encodeURIComponent(value)
    })
    path = path.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1')
    const query = new URLSearchParams(rest).toString()
    return query ? `${path}?${query}` : path
  }

  private add(methods: string[], path: string, handler: RouteHandler): RouteDefinition {
    validateHandler(handler, path)
    const middleware = [...(this.defaultGroup ? [this.defaultGroup] : []), ...this.stack.flatMap((g) => g.middleware ?? [])]
    const namePrefix = this.stack.map((g) => g.as ?? '').join('')
    const route = new RouteDefinition(methods, this.prefixed(path), handler, middleware, (r) => this.named.set(r.routeName!, r), namePrefix)
    route.section = this.section()
    this.list.push(route)
    for (const fn of this.listeners) fn(route)
    return route
  }

  /** The heading of the innermost group that has one. */
  private section(): string | undefined {
    return this.stack.findLast((g) => g.section)?.section
  }

  private prefixed(path: string): string {
    const prefix = this.stack.map((g) => g.prefix ?? '').join('')
    const full = `/${prefix}/${path}`.replace(/\/{2,}/g, '/')
    return full.length > 1 ? full.replace(/\/$/, '') : full
  }
}

function validateHandler(handler: RouteHandler, path: string): void {
  if (typeof handler === 'function') return
  if (!Array.isArray(handler) || typeof handler[0] !== 'function' || typeof handler[1] !== 'string') {
    throw new KilnError(`The handler of route ${path} must be a function or [Controller, 'method'].`)
  }
  const [Controller, method] = handler
  if (FORBIDDEN_KEYS.has(method) || typeof (Controller.prototype as Record<string, unknown>)[method] !== 'function') {
    throw new KilnError(`${Controller.name} has no method "${method}" (route ${path}).`)
  }
}

// Macros merge their types into Router through RouterMacros.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- merged into the class
export interface Router extends RouterMacros {}
