import { defineCompConfig } from 'kiln-framework/comp'

/**
 * Components. Every key has a default; these are the ones most apps touch.
 * `checksum_key` falls back to APP_KEY. Alpine.js comes from Kiln itself
 * here, so the app works with no network; set COMP_REACTIVE_CDN (a script
 * address) to load it from a CDN instead, with Kiln's copy as the fallback.
 */
export default defineCompConfig(({ env }) => ({
  checksum_key: env.get('COMP_CHECKSUM_KEY') ?? null,
  reactive_cdn: env.get('COMP_REACTIVE_CDN') || null,
  signature_ttl_minutes: 720,
  csp_safe: env.boolean('COMP_CSP_SAFE', false),
  // Files go only into properties declared with @upload(); these bound every such rule. Types are
  // checked on the content, so name the ones the app takes rather than accepting anything.
  uploads: {
    store: 'tmp',
    max_kb: 12_288,
    mimes: ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain', 'text/csv'],
    max_age_minutes: 24 * 60,
    quota_mb: 100,
    address_quota_mb: 500,
  },
}))
