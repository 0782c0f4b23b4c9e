import { defineSessionConfig } from 'kiln-framework'

/** Sessions: `fs` (files under storage/) by default; `memory` or `redis` with one env change. */
export default defineSessionConfig(({ env }) => ({
  driver: env.get('SESSION_DRIVER', 'fs'),
  // Minutes of inactivity before a session expires.
  lifetime: env.number('SESSION_LIFETIME', 120),
  // 2 requests in 100 sweep expired sessions out of the fs and memory stores (`kiln session:gc` does it on demand).
  lottery: [2, 100],
  // With the redis store: the longest a request waits on Redis before it gets 503.
  redis_timeout_ms: 1000,
  domain: env.get('SESSION_DOMAIN'),
  // Left out, the cookie is named after APP_NAME (`my_app_session`), so two apps on one host keep their sessions apart.
  cookie: env.get('SESSION_COOKIE'),
  stores: {
    // Keys start with `<APP_NAME as a slug>:sessions:` (`my_app:sessions:`) unless a `prefix` is set here.
    redis: { driver: 'redis', url: env.get('REDIS_URL', 'redis://127.0.0.1:6379') },
  },
}))
