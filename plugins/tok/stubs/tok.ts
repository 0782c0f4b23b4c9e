import { defineConfig } from 'kiln'

/** Token auth: stateful SPA domains, the session guards asked first, token lifetime. */
export default defineConfig(({ env }) => ({
  stateful: (env.get('TOK_STATEFUL_DOMAINS', '') || '').split(',').filter(Boolean).concat(['localhost', 'localhost:3000', '127.0.0.1', '127.0.0.1:8000', '::1']),
  guard: ['web'],
  expiration: env.number('TOK_EXPIRATION') ?? null,
  token_prefix: env.get('TOK_TOKEN_PREFIX', ''),
}))
