import { KilnError } from '../../support/errors.ts'
import type { HttpContext } from '../pipeline/http-context.ts'
import { errorPage } from './error-page.ts'
import { markKilnFrames } from './kiln-frames.ts'

/** Headers whose values never appear on an error page: credentials, sessions, tokens. */
const SECRET_HEADER = /authorization|cookie|token|secret|signature|password|api-key/i

/**
 * The request as the debug page shows it: method, URL and headers, with
 * cookie values, credentials and tokens replaced by `[redacted]` (cookie
 * names and the authorization scheme stay, as they help debugging).
 *
 * @example
 * ```ts
 * redactedRequest(ctx).headers.cookie // 'kiln_session=[redacted]; theme=[redacted]'
 * ```
 */
export function redactedRequest(ctx: HttpContext): { method: string; url: string; headers: Record<string, string> } {
  const headers: Record<string, string> = {}
  for (const [name, value] of ctx.request.headers) {
    if (name === 'cookie')
      headers[name] = value
        .split(';')
        .map((pair) => `${pair.split('=')[0]!.trim()}=[redacted]`)
        .join('; ')
    else if (name === 'authorization' || name === 'proxy-authorization')
      headers[name] = value.includes(' ') ? `${value.split(' ')[0]} [redacted]` : '[redacted]'
    else headers[name] = SECRET_HEADER.test(name) ? '[redacted]' : value
  }
  return { method: ctx.request.method, url: ctx.event.req.url, headers }
}

/**
 * The nonce of a Content-Security-Policy the app's middleware queued for this
 * response (`ctx.response.headers`), so the page's inline styles and scripts
 * carry the nonce that policy allows. Kiln itself sets no policy.
 */
function queuedCspNonce(ctx: HttpContext): string | undefined {
  if (!ctx.hasQueuedResponseState()) return undefined
  const policy = ctx.response.headers.get('content-security-policy')
  return policy ? /'nonce-([^']+)'/.exec(policy)?.[1] : undefined
}

let youch: Promise<typeof import('youch')> | undefined

/**
 * The debug error page's HTML: the error with its cause, the stack with
 * source lines around each frame (the application's own frames marked "In
 * App", Kiln's never), the request (method, URL, redacted headers) and the
 * matched route, rendered by youch. youch is imported on the first such
 * error, so production never loads it. If rendering fails, the plain page
 * with the stack. Everything is read from the context before the first
 * `await`, as rendering may finish after the request's scope has moved on.
 * A component's failed update shows this page in the browser's error dialog.
 *
 * @example
 * ```ts
 * const html = await renderDebugPage(error, ctx, 500)
 * ```
 */
export function renderDebugPage(error: Error, ctx: HttpContext, status: number): Promise<string> {
  const request = redactedRequest(ctx)
  const cspNonce = queuedCspNonce(ctx)
  const route = ctx.route
  const appRoot = ctx.app.root
  const code = error instanceof KilnError ? error.code : undefined
  const routeRows = route
    ? [
        { key: 'route', value: `${route.methods.filter((m) => m !== 'HEAD').join('|')} ${route.path}` },
        ...(route.routeName ? [{ key: 'name', value: route.routeName }] : []),
        ...Object.entries(ctx.params).map(([key, value]) => ({ key: `{${key}}`, value })),
      ]
    : []
  const render = async () => {
    const { Youch } = await (youch ??= import('youch'))
    const page = new Youch().useTransformer(markKilnFrames(appRoot))
    if (routeRows.length) page.metadata.group('Request', { route: routeRows })
    // The documented name of the fault (E_COMP_REACTIVE_MUTATED): youch shows the name and message, not the code.
    if (code) page.metadata.group('Error', { code: { key: 'code', value: code } })
    return page.toHTML(error, { title: `${status} Server Error`, request, ...(cspNonce ? { cspNonce } : {}) })
  }
  return render().catch(() => errorPage(status, error.message, error.stack))
}

/**
 * The debug error page (`APP_DEBUG=true`, a 500 for a browser) as a
 * response (`renderDebugPage`); the body streams once the page is rendered.
 *
 * @example
 * ```ts
 * return debugErrorPage(error, ctx, 500, {})
 * ```
 */
export function debugErrorPage(error: Error, ctx: HttpContext, status: number, headers: Record<string, string>): Response {
  const html = renderDebugPage(error, ctx, status)
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(new TextEncoder().encode(await html))
      controller.close()
    },
  })
  return new Response(body, { status, headers: { ...headers, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } })
}
