import { defineHttpConfig } from 'kiln-framework'

/**
 * HTTP: request bodies, compression, what the server trusts of the
 * network in front of it, and who may frame the pages. Every key has a
 * default (docs/http.md).
 */
export default defineHttpConfig(({ env }) => ({
  // The reverse proxies and load balancers in front of the app (TRUSTED_PROXIES, comma-separated): only their
  // X-Forwarded-* and Forwarded headers are believed, for request.ip(), https and the host (docs/http.md, Behind a proxy).
  trusted_proxies: env.get('TRUSTED_PROXIES'),
  // GET /up answers 200 once the app has booted; GET /up?ready also checks the database and Redis (503 naming what is down).
  health: '/up',
  // A store of config/storage.ts: rate limits (login attempts, upload quotas) count in Redis when it is a redis
  // store (THROTTLE_STORE=redis makes the `throttle` store one), shared by every process; else in this process's memory.
  throttle_store: 'throttle',
  // Who may show these pages in a frame: 'sameorigin' (the app itself, the default), 'deny', or false for no policy
  // (X-Frame-Options and CSP frame-ancestors, docs/security.md, Headers).
  frame_options: 'sameorigin',
}))
