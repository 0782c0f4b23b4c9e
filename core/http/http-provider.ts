import { definePlugin } from '../application/define-plugin.ts'
import type { Application } from '../application/application.ts'
import { httpConfigSchema, type HttpConfig } from './http-config.ts'
import type { CompressionOptions } from './compression/encoding.ts'
import { HttpKernel } from './pipeline/http-kernel.ts'
import { loadRouteFile } from './routing/load-route-files.ts'
import { MiddlewareRegistry } from './pipeline/middleware-registry.ts'
import { requestLog } from './pipeline/request-log.ts'
import { RateLimiters } from './pipeline/rate-limiter.ts'
import { throttle, validateThrottleParams } from './pipeline/throttle.ts'
import { Router } from './routing/router.ts'
import { StaticAssets } from './assets/static-assets.ts'
import { UrlGenerator } from './routing/url-generator.ts'
import { TrustedProxies } from './proxy/trusted-proxies.ts'
import { requireDriverPackages } from '../support/optional-package.ts'
import type { ListenOptions, RunningServer } from './serve.ts'

declare module 'kiln-framework' {
  interface KilnServices {
    router: Router
    middleware: MiddlewareRegistry
    url: UrlGenerator
    assets: StaticAssets
    http: HttpKernel
    limiters: RateLimiters
    /** `http.trusted_proxies`, parsed: the websocket driver counts its per-address limits through it too. */
    proxies: TrustedProxies
    /** Real servers: `app.listen()` goes through it. */
    server: { listen(options?: ListenOptions): Promise<RunningServer> }
  }
}

/**
 * The kernel's HTTP provider: router, middleware registry, URL generator,
 * static assets (and the app's `public/` folder) and the h3 kernel. After every plugin has booted it loads `routes/web.ts` (group
 * `web`) and `routes/api.ts` (group `api`, no path prefix) and resolves every
 * route's middleware so a typo fails at boot.
 */
export const httpProvider = definePlugin({
  name: 'kiln:http',
  config: { file: 'http', schema: httpConfigSchema },
  services: {
    router: { make: () => new Router() },
    middleware: { make: () => new MiddlewareRegistry().group('global', []), token: MiddlewareRegistry },
    url: {
      make: (app) => new UrlGenerator(app.router, app.config.get('app.base_path', ''), app.config.get('app.url', 'http://localhost')),
      token: UrlGenerator,
    },
    assets: { make: staticAssets, token: StaticAssets },
    proxies: (app) => TrustedProxies.from(app.config.get<string[]>('http.trusted_proxies', [])),
    http: { make: httpKernel, token: HttpKernel },
    // Loaded on first listen: srvx and crossws stay out of apps that only answer app.request().
    server: (app) => ({ listen: async (options?: ListenOptions) => (await import('./serve.ts')).listen(app, options) }),
    limiters: { make: rateLimiters, token: RateLimiters, close: (limiters) => limiters.close() },
  },
  register(app) {
    const log = app.config.get<boolean | undefined>('http.request_log') ?? app.environment === 'development'
    if (log) app.middleware.prependToGroup('global', requestLog)
    const limiters = app.service('limiters')
    app.middleware.alias('throttle', throttle, { validate: (params) => validateThrottleParams(params, limiters) })
  },
  async boot(app) {
    app.booted(async () => {
      await loadRouteFile(app, 'web', 'web')
      await loadRouteFile(app, 'api', 'api')
      app.service('http').compileAll()
      // Registered last, so run first when the app closes (after the server stopped, which `listen` registers later):
      // deferred tasks still running finish while the database, mailers and queues they use are still open.
      app.terminating(() => app.service('http').deferred.settled())
    })
  },
})

/** `http.compression` (validated, so every key has its default) as the kernel uses it. */
function compressionOptions(config: HttpConfig['compression']): CompressionOptions {
  return { enabled: config.enabled, threshold: config.threshold, brotliQuality: config.brotli_quality, gzipLevel: config.gzip_level }
}

/** The static files, with the app's `public/` folder when `http.public_dir` names one. */
function staticAssets(app: Application): StaticAssets {
  const assets = new StaticAssets(app.router, app.urls, app.root, compressionOptions(app.config.get<HttpConfig['compression']>('http.compression')))
  const publicDir = app.config.get<string | false>('http.public_dir')
  if (publicDir) assets.publicDirectory(publicDir)
  return assets
}

/** The h3 kernel, serving `public/` and trusting the configured proxies. */
function httpKernel(app: Application): HttpKernel {
  const proxies = app.service('proxies')
  return new HttpKernel(app, app.router, app.middleware, {
    bodyLimit: app.config.get('http.body_limit'),
    basePath: app.config.get('app.base_path', ''),
    publicFiles: app.config.get<string | false>('http.public_dir') ? app.assets : undefined,
    compression: compressionOptions(app.config.get<HttpConfig['compression']>('http.compression')),
    proxies: proxies.configured ? proxies : undefined,
  })
}

/** The rate limiters, once their store's driver package is known to be installed. */
function rateLimiters(app: Application): RateLimiters {
  const throttleStore = app.config.get<string>('http.throttle_store', 'memory')
  const throttleDriver = app.config.get<string>(`storage.stores.${throttleStore}.driver`, '')
  requireDriverPackages(`storage.${throttleDriver}`, `The throttle store "${throttleStore}"`, app.root)
  // Limits count in this process's memory unless their store is Redis (files are not atomic enough to count in).
  app.service('processState').declare({
    what: `rate limits (throttle, login attempts, upload quotas), counted ${throttleDriver === 'redis' ? 'in Redis' : 'in memory'}`,
    scope: throttleDriver === 'redis' ? 'network' : 'process',
    setting: 'set config/http.ts `throttle_store` to a redis store of config/storage.ts (THROTTLE_STORE=redis in the starter)',
  })
  return new RateLimiters(app)
}
