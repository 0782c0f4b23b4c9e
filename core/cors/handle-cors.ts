import { appendCorsHeaders, appendCorsPreflightHeaders, isPreflightRequest, type CorsOptions } from 'h3'
import { middlewareNow, type Middleware } from '../http/pipeline/middleware.ts'
import type { CorsConfig } from './cors-config.ts'

/**
 * CORS for the configured paths (in the `global` group, so preflights for
 * routes that only answer POST still get their 204), through h3's CORS
 * helpers (those `handleCors` is made of). With credentials the origin is echoed, never `*`, and
 * `Vary: Origin` is set. An origin that is not allowed gets no CORS header at all.
 *
 * @example
 * ```ts
 * app.middleware.prependToGroup('global', handleCors)
 * ```
 */
export const handleCors: Middleware = middlewareNow((ctx, next) => {
  const config = ctx.app.config.get<CorsConfig>('cors')
  const origin = ctx.request.header('origin')
  if (!origin || !pathMatches(config.paths, ctx.request.path)) return next()
  const options = corsOptions(config)
  const allowed = originAllowed(config, origin)
  if (!isPreflightRequest(ctx.event)) {
    // On the event's response headers: h3 merges them into whatever the route returns, errors included.
    // A refused origin gets none of them: h3 would still send allow-credentials and expose-headers.
    if (allowed) appendCorsHeaders(ctx.event, options)
    else ctx.event.res.headers.append('vary', 'Origin')
    return next()
  }
  // A refused origin learns nothing of the policy (h3 would still list the methods and headers).
  if (!allowed) return new Response(null, { status: 204, headers: { vary: 'Origin' } })
  appendCorsPreflightHeaders(ctx.event, options)
  return new Response(null, { status: 204, headers: ctx.event.res.headers })
})

// One options object per config object: the config is read once at boot and does not change.
const optionsOf = new WeakMap<CorsConfig, CorsOptions>()

function corsOptions(config: CorsConfig): CorsOptions {
  let options = optionsOf.get(config)
  if (!options) {
    const any = (list: string[]) => list.includes('*')
    options = {
      origin: any(config.allowed_origins) && !config.supports_credentials ? '*' : (origin: string) => originAllowed(config, origin),
      methods: any(config.allowed_methods) ? '*' : config.allowed_methods,
      allowHeaders: any(config.allowed_headers) ? '*' : config.allowed_headers,
      exposeHeaders: config.exposed_headers.length > 0 ? config.exposed_headers : undefined,
      credentials: config.supports_credentials,
      maxAge: config.max_age > 0 ? String(config.max_age) : false,
    }
    optionsOf.set(config, options)
  }
  return options
}

/**
 * True when `origin` is allowed by the config (exact, `*`, or a `*.` wildcard
 * that matches one or more subdomain labels, never the bare domain or a suffix trick).
 *
 * @example
 * ```ts
 * originAllowed({ allowed_origins: ['https://*.example.com'] } as CorsConfig, 'https://app.example.com') // true
 * ```
 */
export function originAllowed(config: Pick<CorsConfig, 'allowed_origins'>, origin: string): boolean {
  for (const rule of config.allowed_origins) {
    if (rule === '*' || rule === origin) return true
    if (rule.includes('*')) {
      const pattern = new RegExp(`^${rule.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[a-z0-9-]+(?:\\.[a-z0-9-]+)*')}$`, 'i')
      if (pattern.test(origin)) return true
    }
  }
  return false
}

function pathMatches(patterns: string[], path: string): boolean {
  const p = path.replace(/^\/+/, '')
  return patterns.some((pattern) => {
    const glob = pattern.replace(/^\/+/, '')
    if (glob === '*') return true
    return new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(p)
  })
}
