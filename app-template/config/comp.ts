import { defineConfig } from 'kiln'

/**
 * Components. Every key has a default; these are the ones most apps touch.
 * `checksum_key` falls back to APP_KEY; `reactive_cdn` to jsDelivr's copy of
 * the installed Alpine.js (Kiln serves its own when the CDN cannot load).
 */
export default defineConfig(({ env }) => ({
  checksum_key: env.get('COMP_CHECKSUM_KEY') ?? null,
  signature_ttl_minutes: 720,
  csp_safe: env.boolean('COMP_CSP_SAFE', false),
  uploads: { store: 'tmp', max_kb: 12_288, mimes: [], max_age_minutes: 24 * 60 },
}))
