import { defineCorsConfig } from 'kiln-framework'

/** CORS for an SPA on another origin that calls the API with cookies. */
export default defineCorsConfig(({ env }) => ({
  paths: ['api/*', 'tok/csrf-cookie', 'login', 'logout', 'user', 'broadcasting/auth'],
  allowed_origins: (env.get('CORS_ALLOWED_ORIGINS', '') || '').split(',').filter(Boolean),
  supports_credentials: true,
}))
