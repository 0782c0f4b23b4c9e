import type { HttpContext } from '../pipeline/http-context.ts'
import type { MiddlewareRef } from '../pipeline/middleware.ts'

/** A function route handler. Its return value becomes the response. */
export type HandlerFunction = (ctx: HttpContext) => unknown | Promise<unknown>

/** A controller class, resolved from the container for each request. */
export type ControllerClass = new (...args: any[]) => object

/** A function, or `[ControllerClass, 'method']`. */
export type RouteHandler = HandlerFunction | readonly [ControllerClass, string]

/**
 * One registered route. Returned by `Route.get(...)` and friends so that
 * middleware and a name can be chained.
 *
 * @example
 * ```ts
 * Route.get('/user', [UserController, 'show']).middleware(['auth:tok']).name('user.show')
 * ```
 */
export class RouteDefinition {
  private ownMiddleware: MiddlewareRef[] = []
  private excluded = new Set<string>()
  routeName?: string
  /** What its group's routes are for (`Route.group({ section })`): `kiln route:list` lists it under that heading. */
  section?: string
  /** This route's own request body limit in bytes (`http.body_limit` otherwise). */
  maxBodyBytes?: number
  /** Set by {@link RouteDefinition.quiet}: the request log writes this route's answers at `debug`. */
  quietLog = false
  /** @internal cached pipeline, reset when middleware changes. */
  compiled?: unknown

  constructor(
    readonly methods: readonly string[],
    /** The path as declared, e.g. `/posts/{post}`. */
    readonly path: string,
    readonly handler: RouteHandler,
    /** Middleware from enclosing groups. */
    readonly groupMiddleware: readonly MiddlewareRef[],
    private readonly onName: (route: RouteDefinition) => void,
    /** Group name prefix for `.name()`. */
    private readonly namePrefix = '',
  ) {}

  /** Adds middleware (aliases, groups or functions). @example `.middleware(['auth:tok', 'abilities:posts:write'])` */
  middleware(refs: MiddlewareRef | MiddlewareRef[]): this {
    this.ownMiddleware.push(...(Array.isArray(refs) ? refs : [refs]))
    this.compiled = undefined
    return this
  }

  /** Removes middleware by alias name inherited from groups. @example `.withoutMiddleware(['csrf'])` */
  withoutMiddleware(names: string | string[]): this {
    for (const name of Array.isArray(names) ? names : [names]) this.excluded.add(name)
    this.compiled = undefined
    return this
  }

  /**
   * Accepts request bodies up to `bytes` on this route instead of
   * `http.body_limit` (an upload route, say). The limit is enforced while the
   * body streams in.
   *
   * @example
   * ```ts
   * Route.post('/avatars', [AvatarController, 'store']).bodyLimit(10_000_000)
   * ```
   */
  bodyLimit(bytes: number): this {
    if (!Number.isSafeInteger(bytes) || bytes < 1) throw new TypeError(`A body limit must be a positive whole number of bytes, not ${bytes}.`)
    this.maxBodyBytes = bytes
    return this
  }

  /**
   * The request log writes this route's answers at `debug` instead of
   * `info` (and a 503 too, instead of `error`): for probes a load balancer
   * or an orchestrator sends every few seconds, which would bury the other
   * lines. Other 5xx answers are still errors.
   *
   * @example
   * ```ts
   * Route.get('/ping', () => ({ pong: true })).quiet()
   * ```
   */
  quiet(): this {
    this.quietLog = true
    return this
  }

  /** Names the route for `route(name, params)`. @example `.name('posts.show')` */
  name(name: string): this {
    this.routeName = this.namePrefix + name
    this.onName(this)
    return this
  }

  /** Group middleware then the route's own. @example `route.allMiddleware()` */
  allMiddleware(): MiddlewareRef[] {
    return [...this.groupMiddleware, ...this.ownMiddleware]
  }

  /** Middleware names excluded with `withoutMiddleware`. @example `route.excludedMiddleware()` */
  excludedMiddleware(): ReadonlySet<string> {
    return this.excluded
  }

  /** Parameter names in declaration order. @example `['post']` */
  get parameterNames(): string[] {
    return [...this.path.matchAll(/\{(\w+)\??\}|:(\w+)/g)].map((m) => (m[1] ?? m[2])!)
  }

  /** A short label of the handler, for `route:list`. @example `'UserController@show'` */
  get handlerLabel(): string {
    if (typeof this.handler === 'function') return this.handler.name || 'closure'
    return `${this.handler[0].name}@${this.handler[1]}`
  }
}
