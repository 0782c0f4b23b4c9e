import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { csrfToken, type HttpContext } from '../../../core/index.ts'
import type { Application } from '../../../core/index.ts'
import type { ComponentManager } from '../component-manager.ts'
import { escapeAttribute } from '../rendering/html-root.ts'
import { signedEndpoint } from '../protocol/keys.ts'

/** Set on a request whose page already has the scripts. */
export const SCRIPTS_EMITTED = Symbol.for('kiln.comp.scripts-emitted')

const require = createRequire(import.meta.url)

/** What a feature adds to `@compScripts`. */
export interface ScriptPart {
  /** Tags printed after the metas, before the boot configuration (a style), with the page's CSP nonce. */
  head?(nonce: string | undefined): string
  /** Entries of the browser's boot configuration (`window.__COMP__`), after the plugin's own. */
  config?(app: Application): Record<string, unknown> | Promise<Record<string, unknown>>
}

const parts: ScriptPart[] = []

/**
 * Adds a feature's part to what `@compScripts` prints.
 *
 * @example
 * ```ts
 * addScriptPart({ head: (nonce) => cloakStyle(nonce) })
 * ```
 */
export function addScriptPart(part: ScriptPart): void {
  if (!parts.includes(part)) parts.push(part)
}

/** Kiln's own copies of the reactive library: the plain build and the CSP-safe one. */
export const REACTIVE = {
  plain: { url: '/comp/alpine.js', pkg: 'alpinejs' },
  csp: { url: '/comp/alpine-csp.js', pkg: '@alpinejs/csp' },
} as const

/**
 * The file of Kiln's copy of the reactive library (from npm).
 *
 * @example
 * ```ts
 * reactiveFile(false) // '/app/node_modules/alpinejs/dist/cdn.min.js'
 * ```
 */
export function reactiveFile(cspSafe: boolean): string {
  return join(dirname(require.resolve(`${REACTIVE[cspSafe ? 'csp' : 'plain'].pkg}/package.json`)), 'dist', 'cdn.min.js')
}

const cdn = new Map<boolean, { url: string; integrity: string }>()

/** jsDelivr's copy of the installed version, with the Subresource Integrity hash of the very same file. */
function defaultCdn(cspSafe: boolean): { url: string; integrity: string } {
  let entry = cdn.get(cspSafe)
  if (!entry) {
    const pkg = REACTIVE[cspSafe ? 'csp' : 'plain'].pkg
    const { version } = require(`${pkg}/package.json`) as { version: string }
    const integrity = `sha384-${createHash('sha384')
      .update(readFileSync(reactiveFile(cspSafe)))
      .digest('base64')}`
    cdn.set(cspSafe, (entry = { url: `https://cdn.jsdelivr.net/npm/${pkg}@${version}/dist/cdn.min.js`, integrity }))
  }
  return entry
}

/**
 * What `@compScripts` prints: the `comp-endpoint` and `comp-base` metas, the
 * style that hides `wire:loading`, `wire:offline`, `wire:dirty` and
 * `wire:cloak` elements until the client boots, the boot configuration (`window.__COMP__ = {base, endpoint, asset, ...}`; with
 * `csp_safe`, a JSON script the client reads instead of inline code), the
 * client script, then the reactive library from `reactive_cdn` with Kiln's
 * own copy as the fallback the client loads when the CDN fails. Every URL
 * carries `APP_BASE_PATH`; the endpoint is freshly signed. When the app's
 * Content-Security-Policy has a nonce (`nonce`, else the one queued on
 * `ctx.response.headers`), every tag carries it.
 *
 * @example
 * ```ts
 * const html = await compScripts(manager, ctx)
 * ```
 */
export async function compScripts(manager: ComponentManager, ctx?: HttpContext, nonce = queuedCspNonce(ctx)): Promise<string> {
  const { app, config } = manager
  ctx?.locals.set(SCRIPTS_EMITTED, true)
  const signer = app.service('signer')
  const endpoint = signedEndpoint(signer, config.endpoint, config.signature_ttl_minutes, manager.binding.tag(ctx))
  const base = app.urls.basePath
  const asset = await app.assets.versionedUrl(config.asset_url)
  const local = await app.assets.versionedUrl(REACTIVE[config.csp_safe ? 'csp' : 'plain'].url)
  const remote =
    config.reactive_cdn === null ? undefined : config.reactive_cdn ? { url: config.reactive_cdn, integrity: undefined } : defaultCdn(config.csp_safe)
  const boot = {
    base,
    endpoint,
    asset,
    reactive: local,
    // Masked afresh for each page (BREACH); the server accepts it as the session's token.
    csrf: ctx?.session ? csrfToken(ctx) : undefined,
    coalesceMs: config.coalesce_ms,
    debug: app.debug,
    cspSafe: config.csp_safe,
    maxComponents: config.limits.max_components,
    maxPayloadBytes: config.limits.max_payload_bytes,
    progressBar: config.navigate.show_progress_bar && config.navigate.progress_bar_color,
  }
  for (const part of parts) if (part.config) Object.assign(boot, await part.config(app))
  const json = JSON.stringify(boot).replace(/</g, '\\u003c')
  const n = nonce ? ` nonce="${escapeAttribute(nonce)}"` : ''
  const reactiveTag = remote
    ? `<script src="${escapeAttribute(remote.url)}" defer data-comp-reactive data-fallback="${escapeAttribute(local)}"${sri(remote.integrity)}${n}></script>`
    : `<script src="${escapeAttribute(local)}" defer data-comp-reactive${n}></script>`
  return [
    `<meta name="comp-endpoint" content="${escapeAttribute(endpoint)}">`,
    `<meta name="comp-base" content="${escapeAttribute(base)}">`,
    // The features' tags: wire:loading, wire:offline, wire:dirty and wire:cloak elements stay hidden until the client has booted.
    ...parts.flatMap((part) => (part.head ? [part.head(nonce)] : [])),
    config.csp_safe ? `<script type="application/json" id="comp-config">${json}</script>` : `<script${n}>window.__COMP__ = ${json}</script>`,
    // The client first: it must hear the reactive library's init event.
    `<script src="${escapeAttribute(asset)}" defer${n}></script>`,
    reactiveTag,
  ].join('\n')
}

/**
 * The nonce of a Content-Security-Policy the app's middleware queued for this
 * response (`ctx.response.headers`): Kiln's style and script tags carry it.
 */
function queuedCspNonce(ctx: HttpContext | undefined): string | undefined {
  if (!ctx?.hasQueuedResponseState()) return undefined
  return cspNonce(ctx.response.headers.get('content-security-policy'))
}

/**
 * The nonce a Content-Security-Policy header allows (`'nonce-…'`), if any.
 *
 * @example
 * ```ts
 * cspNonce("script-src 'nonce-abc'") // 'abc'
 * ```
 */
export function cspNonce(policy: string | null | undefined): string | undefined {
  return policy ? /'nonce-([^']+)'/.exec(policy)?.[1] : undefined
}

/** Subresource integrity for a script from a CDN, when its hash is known. */
function sri(integrity: string | undefined): string {
  return integrity ? ` integrity="${integrity}" crossorigin="anonymous"` : ''
}
