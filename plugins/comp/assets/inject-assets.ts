import { knownBody, type Middleware } from '../../../core/index.ts'
import type { ComponentManager } from '../component-manager.ts'
import { RENDERED_COMPONENTS } from '../lifecycle/mount.ts'
import { compScripts, cspNonce, SCRIPTS_EMITTED } from './scripts.ts'

/**
 * With `inject_assets` (the default): a page that rendered components but
 * whose layout has no `@compScripts` gets the scripts anyway, before
 * `</head>` (else `</body>`, else at the end). Other responses pass untouched.
 *
 * @example
 * ```ts
 * app.middleware.appendToGroup('web', injectAssets(manager))
 * ```
 */
export function injectAssets(manager: ComponentManager): Middleware {
  return async (ctx, next) => {
    const response = await next()
    if (!ctx.locals.get(RENDERED_COMPONENTS) || ctx.locals.get(SCRIPTS_EMITTED)) return response
    if (!(response.headers.get('content-type') ?? '').includes('text/html') || !response.body) return response
    const html = await response.text()
    // A policy set on the response itself (not queued on the context) gives the nonce too.
    const scripts = await compScripts(manager, ctx, cspNonce(response.headers.get('content-security-policy')))
    const at = ['</head>', '</body>'].map((tag) => html.toLowerCase().lastIndexOf(tag)).find((index) => index >= 0)
    const injected = at === undefined ? `${html}\n${scripts}` : `${html.slice(0, at)}${scripts}\n${html.slice(at)}`
    const headers = new Headers(response.headers)
    headers.delete('content-length')
    return knownBody(new Response(injected, { status: response.status, headers }), injected)
  }
}
