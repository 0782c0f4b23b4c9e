import type { HttpContext } from '../../../core/index.ts'

/**
 * True when a failed update should carry the debug page: in debug mode, for
 * a client that accepts HTML besides JSON. The browser's component client
 * does (`Accept: application/json, text/html;q=0.9`) and shows the page in
 * its error dialog; a JSON-only client (`testComponent`, an API tool) keeps
 * the JSON answer with `message`, `exception` and `stack`.
 *
 * @example
 * ```ts
 * return renderError(error, ctx, { debugPage: showsErrorPages(ctx) })
 * ```
 */
export function showsErrorPages(ctx: HttpContext): boolean {
  return ctx.app.debug && (ctx.request.header('accept') ?? '').includes('text/html')
}
