import { currentRequestHost, defineTokConfig } from 'kiln-framework/tok'

/** Token auth: stateful SPA domains, the session guards asked first, token lifetime. */
export default defineTokConfig(({ env }) => ({
  // Left out, the defaults are localhost, localhost:3000, 127.0.0.1, 127.0.0.1:8000, ::1 and APP_URL's host.
  stateful: [
    ...(env.get('TOK_STATEFUL_DOMAINS', '') || '').split(',').filter(Boolean),
    'localhost',
    'localhost:3000',
    '127.0.0.1',
    '127.0.0.1:8000',
    '::1',
    currentRequestHost(),
  ],
  guard: ['web'],
  expiration: env.number('TOK_EXPIRATION') ?? null,
  token_prefix: env.get('TOK_TOKEN_PREFIX', ''),
  // Verified tokens kept in memory for `ttl` seconds, dropped at once on revoke; TOK_CACHE_REDIS shares that between processes.
  cache: { enabled: env.boolean('TOK_CACHE', false), ttl: 10, redis: env.get('TOK_CACHE_REDIS') },
}))
