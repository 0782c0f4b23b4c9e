import type { Middleware } from '../http/middleware.ts'
import type { CorsConfig } from './cors-config.ts'

/**
 * CORS for the configured paths (in the `global` group, so preflights for
 * routes that only answer POST still get their 204). With credentials the
 * origin is echoed, never `*`, and `Vary: Origin` is set.
 *
 * @example
 * ```ts
 * app.middleware.prependToGroup('global', handleCors)
 * ```
 */
export const handleCors: Middleware = async (ctx, next) => {
  const config = ctx.app.config.get<CorsConfig>('cors')
  const origin = ctx.request.header('origin')
  if (!origin || !pathMatches(config.paths, ctx.request.path)) return next()
  const allowed = originAllowed(config, origin)
  const preflight = ctx.request.method === 'OPTIONS' && ctx.request.header('access-control-request-method') !== undefined

  if (preflight) {
    const headers = new Headers({ vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers' })
    if (allowed) {
      applyOrigin(headers, config, origin)
      const method = ctx.request.header('access-control-request-method')!
      headers.set('access-control-allow-methods', config.allowed_methods.includes('*') ? method : config.allowed_methods.join(', '))
      const requested = ctx.request.header('access-control-request-headers')
      if (requested || !config.allowed_headers.includes('*')) {
        headers.set('access-control-allow-headers', config.allowed_headers.includes('*') ? (requested ?? '') : config.allowed_headers.join(', '))
      }
      if (config.max_age > 0) headers.set('access-control-max-age', String(config.max_age))
    }
    return new Response(null, { status: 204, headers })
  }

  const response = await next()
  if (allowed) {
    applyOrigin(response.headers, config, origin)
    if (config.exposed_headers.length > 0) response.headers.set('access-control-expose-headers', config.exposed_headers.join(', '))
  }
  response.headers.append('vary', 'Origin')
  return response
}

function applyOrigin(headers: Headers, config: CorsConfig, origin: string): void {
  const wildcard = config.allowed_origins.includes('*') && !config.supports_credentials
  headers.set('access-control-allow-origin', wildcard ? '*' : origin)
  if (config.supports_credentials) headers.set('access-control-allow-credentials', 'true')
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

