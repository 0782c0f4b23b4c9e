import { defineConfig } from 'kiln'

/** Sessions: `fs` (files under storage/) by default; `memory` or `redis` with one env change. */
export default defineConfig(({ env }) => ({
  driver: env.get('SESSION_DRIVER', 'fs'),
  lifetime: env.number('SESSION_LIFETIME', 120),
  domain: env.get('SESSION_DOMAIN'),
  stores: {
    redis: { driver: 'redis', url: env.get('REDIS_URL', 'redis://127.0.0.1:6379'), prefix: 'kiln:sessions' },
  },
}))
