import { H3, type H3Event } from 'h3'
import { addRoute, createRouter, findRoute } from 'rou3'
import type { Application } from '../../application/application.ts'
import { runWithApp } from '../../application/current-app.ts'
import { parseBody } from '../body/body-parser.ts'
import { TRUSTED_PROXIES } from '../body/kiln-request.ts'
import type { TrustedProxies } from '../proxy/trusted-proxies.ts'
import { compressResponse } from '../compression/compress-response.ts'
import type { CompressionOptions } from '../compression/encoding.ts'
import { renderError } from '../errors/error-renderer.ts'
import { contextOf, runWithContext, type HttpContext } from './http-context.ts'
import { DeferredTasks } from './deferred-tasks.ts'
import { HttpException } from '../errors/http-exception.ts'
import type { MiddlewareRegistry, ResolvedMiddleware } from './middleware-registry.ts'
import { KilnError } from '../../support/errors.ts'
import { compose, type Pipeline } from './pipeline.ts'
import type { RouteDefinition } from '../routing/route-definition.ts'
import type { Router } from '../routing/router.ts'

const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Turns the router's routes into an h3 app: matches paths (with rou3),
 * strips `APP_BASE_PATH`, parses bodies, runs the middleware pipeline, and
 * answers 404/405 through the global middleware (so CORS and logging see them).
 *
 * @example
 * ```ts
 * const kernel = new HttpKernel(app, app.router, app.middleware, { bodyLimit: 1_000_000 })
 * const res = await kernel.request('/health')
 * ```
 */
export class HttpKernel {
  readonly h3: H3
  /** Tasks that run after their request's response (`ctx.defer`, `defer()`); `app.close()` waits for them. */
  readonly deferred: DeferredTasks
  /** Which methods each path answers, for telling 405 from 404. */
  private readonly methods = createRouter<Set<string>>()
  private readonly methodsByPath = new Map<string, Set<string>>()
  private fallback?: Pipeline

  constructor(
    private readonly app: Application,
    private readonly router: Router,
    private readonly middleware: MiddlewareRegistry,
    private readonly options: {
      bodyLimit: number
      basePath: string
      /** Answers GETs that no route matched from the app's `public/` folder. */
      publicFiles?: { servePublic(event: H3Event): Promise<Response | undefined> }
      /** `http.compression`: every response passes the compressor on its way out. */
      compression?: CompressionOptions
      /** `http.trusted_proxies`, when any are configured: each request's context carries them (see `KilnRequest.ip`). */
      proxies?: TrustedProxies
    },
  ) {
    this.deferred = new DeferredTasks(app)
    this.h3 = new H3({
      onRequest: (event) => {
        // Only when configured: a request's forwarding headers are otherwise never looked at.
        if (options.proxies) (event.context as Record<symbol, unknown>)[TRUSTED_PROXIES] = options.proxies
        this.stripBasePath(event)
      },
      onError: (error, event) => {
        const ctx = contextOf(app, event)
        const response = renderError(error, ctx)
        ctx.responded()
        return response
      },
    })
    router.onRoute((route) => this.mount(route))
    this.h3.all('/**', (event) => this.handleUnmatched(event))
  }

  /** Serves a web `Request`. @example `await kernel.fetch(new Request('http://x/health'))` */
  // `Promise.resolve` hands a promise back as it is: one promise only for an answer known at once.
  fetch = (request: Request): Promise<Response> => Promise.resolve(this.serveNow(request))

  /**
   * {@link fetch} for the server: an answer known at once comes back as a
   * `Response`, without a promise (srvx sends either), as bare h3 answers
   * a synchronous handler. Each promise of a request costs an
   * AsyncLocalStorage hook on Node 20. @internal
   *
   * @example
   * ```ts
   * serve({ fetch: (request) => kernel.serveNow(request) })
   * ```
   */
  serveNow(request: Request): Response | Promise<Response> {
    // Set by this kernel's handlers; cleared first, so a request served by another app before is never misread.
    ;(request as Answered)[ANSWERED] = undefined
    const compression = this.options.compression
    const served = this.h3.fetch(request) as Response | Promise<Response>
    if (!compression?.enabled) return served
    if (served instanceof Response) return compressResponse(request, served, compression, (request as Answered)[ANSWERED])
    return served.then((response) => compressResponse(request, response, compression, (request as Answered)[ANSWERED]))
  }

  /**
   * Serves a path or URL without a network: `app.request()` in tests.
   *
   * @example
   * ```ts
   * await kernel.request('/login', { method: 'POST', body: JSON.stringify({ email }) })
   * ```
   */
  request(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const request =
      typeof input === 'string' && input.startsWith('/')
        ? new Request(`http://localhost${input}`, init)
        : input instanceof Request
          ? input
          : new Request(input, init)
    return this.fetch(request)
  }

  /** Resolves every route's middleware now, so a typo fails at boot rather than on a request. @example `kernel.compileAll()` */
  compileAll(): void {
    for (const route of this.router.routes()) this.pipelineFor(route)
    this.fallback = compose(this.middleware.resolve(['global']), unmatched)
  }

  private mount(route: RouteDefinition): void {
    const handler = (event: H3Event) => this.handle(event, route)
    for (const path of expandOptional(route.path)) {
      const h3Path = path.replace(/\{(\w+)\}/g, ':$1')
      for (const method of route.methods) {
        this.h3.on(method as 'GET', h3Path, handler)
        let set = this.methodsByPath.get(h3Path)
        if (!set) {
          set = new Set()
          this.methodsByPath.set(h3Path, set)
          addRoute(this.methods, '', h3Path, set)
        }
        set.add(method)
      }
    }
  }

  private handle(event: H3Event, route: RouteDefinition): Response | Promise<Response> {
    const ctx = contextOf(this.app, event)
    ctx.route = route
    // No async wrapper for a bodyless request, and no `then` when the pipeline's answer is already known (h3 takes
    // a `Response` as it is): each promise costs an AsyncLocalStorage hook on Node 20.
    return runWithContext(ctx, () => {
      if (!BODYLESS.has(event.req.method)) return this.handleWithBody(event, route, ctx)
      const result = this.pipelineFor(route)(ctx)
      return result instanceof Response ? answer(ctx, result) : result.then((response) => answer(ctx, response))
    })
  }

  private async handleWithBody(event: H3Event, route: RouteDefinition, ctx: HttpContext): Promise<Response> {
    try {
      ctx.request.parsed = await parseBody(event.req as unknown as Request, route.maxBodyBytes ?? this.options.bodyLimit)
    } catch (error) {
      return renderError(error, ctx)
    }
    return answer(ctx, await this.pipelineFor(route)(ctx))
  }

  private pipelineFor(route: RouteDefinition): Pipeline {
    if (route.compiled) return route.compiled as Pipeline
    const excluded = route.excludedMiddleware()
    let resolved: ResolvedMiddleware[]
    try {
      resolved = this.middleware.resolve(['global', ...route.allMiddleware()])
    } catch (error) {
      // Name the route, so a misconfigured middleware is found from the boot error alone.
      throw new KilnError(
        `Route ${route.methods.filter((m) => m !== 'HEAD').join('|')} ${route.path}: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      )
    }
    const layers = resolved.filter((layer) => !excluded.has(layer.label.split(':')[0]!))
    const pipeline = compose(layers, (ctx) => callHandler(route, ctx))
    route.compiled = pipeline
    return pipeline
  }

  private async handleUnmatched(event: H3Event): Promise<Response> {
    const file = await this.options.publicFiles?.servePublic(event)
    if (file) {
      ;(event.req as unknown as Answered)[ANSWERED] = file
      return file
    }
    const ctx = contextOf(this.app, event)
    const allowed = findRoute(this.methods, '', event.url.pathname)?.data
    if (allowed) ctx.locals.set(ALLOWED, allowed)
    this.fallback ??= compose(this.middleware.resolve(['global']), unmatched)
    const response = await runWithApp(this.app, () => this.fallback!(ctx))
    ;(event.req as unknown as Answered)[ANSWERED] = response
    ctx.responded()
    return response
  }

  private stripBasePath(event: H3Event): void {
    const base = this.options.basePath
    if (!base) return
    const path = event.url.pathname
    if (path === base) event.url.pathname = '/'
    else if (path.startsWith(base + '/')) event.url.pathname = path.slice(base.length)
  }
}

const ALLOWED = Symbol('allowed-methods')

/**
 * What the app answered a request, before h3 copies it to merge headers set on the event (CORS, static files). On
 * the request itself: a WeakMap entry per request cost the garbage collector more (issue 25, P0).
 */
const ANSWERED = Symbol('kiln.answered')
type Answered = Request & { [ANSWERED]?: Response }

/**
 * Marks what the app answered (for the compressor) and lets the request's deferred tasks start; HEAD runs the GET
 * handler for its headers, and its body is never sent.
 */
function answer(ctx: HttpContext, response: Response): Response {
  const event = ctx.event
  ;(event.req as unknown as Answered)[ANSWERED] = response
  ctx.responded()
  return event.req.method === 'HEAD' && response.body ? new Response(null, { status: response.status, headers: response.headers }) : response
}

function unmatched(ctx: HttpContext): never {
  const allowed = ctx.locals.get(ALLOWED) as Set<string> | undefined
  if (allowed && allowed.size > 0) {
    const allow = [...new Set([...allowed, ...(allowed.has('GET') ? ['HEAD'] : [])])].join(', ')
    throw new HttpException(405, 'Method not allowed.', { headers: { allow } })
  }
  throw new HttpException(404, 'Not found.')
}

/** Not async: a handler's plain answer becomes a `Response` without a promise (the pipeline awaits only promises). */
function callHandler(route: RouteDefinition, ctx: HttpContext): unknown {
  const handler = route.handler
  if (typeof handler === 'function') return handler(ctx)
  const [Controller, method] = handler
  const instance = ctx.app.container.resolve(Controller as new () => Record<string, (ctx: HttpContext) => unknown>)
  return instance[method]!(ctx)
}

function expandOptional(path: string): string[] {
  const optional = /\/\{(\w+)\?\}/
  if (!optional.test(path)) return [path]
  const withParam = path.replace(optional, '/{$1}')
  const without = path.replace(optional, '') || '/'
  return [...expandOptional(withParam), ...expandOptional(without)]
}
