import type { HttpContext } from '../pipeline/http-context.ts'
import { errorPage } from './error-page.ts'

/** What the app's error views need from the view service: whether a view exists, and rendering it. */
interface ErrorViews {
  engine(): { exists(name: string): boolean }
  render(name: string, data: Record<string, unknown>, ctx?: HttpContext): Promise<string>
}

/**
 * The app's own view for an error status, as in Laravel: `errors/404`, then
 * `errors/4xx` (or `errors/500`, then `errors/5xx`) from
 * `resources/views/errors/`. Undefined when the app has none.
 *
 * @example
 * ```ts
 * appErrorView(ctx, 404) // 'errors/404' when resources/views/errors/404.hbs exists
 * ```
 */
export function appErrorView(ctx: HttpContext, status: number): string | undefined {
  const views = errorViews(ctx)
  if (!views) return undefined
  try {
    const engine = views.engine()
    return [`errors/${status}`, `errors/${String(status)[0]}xx`].find((name) => engine.exists(name))
  } catch {
    return undefined
  }
}

/**
 * Renders an app error view as the body of an HTML error response. The
 * status and headers are known at once; the body follows when the view has
 * rendered (with the request's view data: the user, the CSRF token). A view
 * that fails to render gives way to Kiln's own small page, never to a
 * second error.
 *
 * @example
 * ```ts
 * return appErrorResponse(ctx, 'errors/404', 404, 'Not found.', {})
 * ```
 */
export function appErrorResponse(ctx: HttpContext, view: string, status: number, message: string, headers: Record<string, string>): Response {
  const views = errorViews(ctx)!
  const html = views.render(view, { status, message, title: message }, ctx).catch((error: unknown) => {
    const logger = ctx.app.hasService('logger') ? ctx.app.service('logger') : undefined
    logger?.error({ err: error, view }, 'The error view failed to render; the plain error page was sent')
    return errorPage(status, message)
  })
  // The render starts now, inside this request's context; the stream only waits for it.
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      controller.enqueue(new TextEncoder().encode(await html))
      controller.close()
    },
  })
  return new Response(body, { status, headers: { ...headers, 'content-type': 'text/html; charset=utf-8' } })
}

function errorViews(ctx: HttpContext): ErrorViews | undefined {
  return ctx.app.hasService('views') ? (ctx.app.service('views') as ErrorViews) : undefined
}
