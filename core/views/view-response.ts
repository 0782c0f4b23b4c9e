import { FastResponse } from 'srvx'
import { currentApp } from '../application/current-app.ts'
import { knownBody } from '../http/compression/known-body.ts'
import type { HttpContext } from '../http/pipeline/http-context.ts'

/**
 * A view as a handler's return value: rendered with the request's composers.
 *
 * @example
 * ```ts
 * Route.get('/', () => view('home', { title: 'Welcome' }))
 * Route.get('/gone', () => view('errors/gone').status(410))
 * ```
 */
export class ViewResponse {
  private statusCode = 200
  private readonly headers: Record<string, string> = {}

  constructor(
    readonly name: string,
    readonly data: Record<string, unknown> = {},
  ) {}

  /** Sets the status. @example `view('x').status(404)` */
  status(code: number): this {
    this.statusCode = code
    return this
  }

  /** Adds a header. @example `view('x').header('cache-control', 'no-store')` */
  header(name: string, value: string): this {
    this.headers[name.toLowerCase()] = value
    return this
  }

  async toResponse(ctx: HttpContext): Promise<Response> {
    const html = await ctx.app.service('views').render(this.name, this.data, ctx)
    return knownBody(new FastResponse(html, { status: this.statusCode, headers: { 'content-type': 'text/html; charset=utf-8', ...this.headers } }), html)
  }
}

/**
 * A view response.
 *
 * @example
 * ```ts
 * return view('posts/show', { post })
 * ```
 */
export function view(name: string, data: Record<string, unknown> = {}): ViewResponse {
  return new ViewResponse(name, data)
}

/**
 * Renders a view to a string with the app in scope (mail bodies, fragments).
 *
 * @example
 * ```ts
 * const html = await renderView('emails/welcome', { user })
 * ```
 */
export function renderView(name: string, data: Record<string, unknown> = {}): Promise<string> {
  return currentApp().service('views').render(name, data)
}
