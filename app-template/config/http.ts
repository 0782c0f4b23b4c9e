import { defineHttpConfig } from 'kiln-framework'

/**
 * HTTP: request bodies, compression, and what the server trusts of the
 * network in front of it. Every key has a default (docs/http.md).
 */
export default defineHttpConfig(({ env }) => ({
  // A store of config/storage.ts: rate limits (login attempts, upload quotas) count in Redis when it is a redis
  // store (THROTTLE_STORE=redis), shared by every process; anything else counts in this process's memory.
  throttle_store: env.get('THROTTLE_STORE', 'memory'),
}))
