import { defineEnv, type EnvValues } from 'kiln-framework'
import { z } from 'zod'

/**
 * The environment variables this app reads, checked when it boots: a value of
 * the wrong type, a missing required one, or a misspelled name in .env stops
 * it with a message naming the variable. `env.get('PORT')` in config files is
 * then typed from here (a number), and accepts only the names listed here: a
 * misspelt name is a compile error. Variables not listed are left alone.
 */
const env = defineEnv({
  APP_NAME: z.string().default('Kiln'),
  APP_ENV: z.enum(['production', 'development', 'local', 'test']).default('development'),
  APP_DEBUG: z.stringbool().default(false),
  APP_KEY: z.string().optional(),
  APP_URL: z.url().default('http://127.0.0.1:3000'),
  APP_BASE_PATH: z.string().default(''),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  // Comma-separated addresses, CIDR ranges or named ranges (config/http.ts checks each entry).
  TRUSTED_PROXIES: z.string().default(''),

  SESSION_DRIVER: z.enum(['memory', 'fs', 'redis']).default('fs'),
  SESSION_LIFETIME: z.coerce.number().positive().default(120),
  SESSION_DOMAIN: z.string().optional(),
  SESSION_COOKIE: z.string().optional(),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  CACHE_STORE: z.enum(['memory', 'fs', 'redis']).default('memory'),
  THROTTLE_STORE: z.enum(['memory', 'redis']).default('memory'),
  UPLOADS_STORE: z.enum(['fs', 'redis', 'memory']).default('fs'),
  FILES_STORE: z.enum(['fs', 'redis', 'memory']).default('fs'),

  DB_CONNECTION: z.enum(['sqlite', 'pgsql']).default('sqlite'),
  DB_DATABASE: z.string().default('database/database.sqlite'),
  DATABASE_URL: z.string().default('postgres://postgres@127.0.0.1:5432/kiln'),

  // sync | memory (jobs run in the process that queued them) | redis (jobs wait in Redis for `kiln queue:work`)
  QUEUE_CONNECTION: z.enum(['sync', 'memory', 'redis']).default('memory'),

  BROADCAST_CONNECTION: z.enum(['log', 'null', 'websocket', 'rt', 'kv', 'hosted']).default('log'),
  RT_SCALING: z.stringbool().default(false),
  RT_APP_KEY: z.string().optional(),
  RT_APP_SECRET: z.string().optional(),
  RT_MAX_CONNECTIONS: z.coerce.number().int().positive().optional(),
  RT_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().positive().optional(),
  // Comma-separated hosts whose pages may open a socket.
  RT_ALLOWED_ORIGINS: z.string().optional(),
  BROADCAST_PREFIX: z.string().optional(),
  PUSHER_APP_ID: z.string().optional(),
  PUSHER_APP_KEY: z.string().optional(),
  PUSHER_APP_SECRET: z.string().optional(),
  PUSHER_HOST: z.string().optional(),
  PUSHER_PORT: z.coerce.number().int().positive().optional(),
  PUSHER_SCHEME: z.enum(['http', 'https']).optional(),
  PUSHER_APP_CLUSTER: z.string().optional(),

  COMP_CHECKSUM_KEY: z.string().optional(),
  COMP_REACTIVE_CDN: z.url().optional(),
  COMP_CSP_SAFE: z.stringbool().optional(),

  // Comma-separated origins allowed to call the API with cookies.
  CORS_ALLOWED_ORIGINS: z.string().optional(),

  TOK_CACHE: z.stringbool().default(false),
  TOK_CACHE_REDIS: z.string().optional(),
  TOK_EXPIRATION: z.coerce.number().positive().optional(),
  // Comma-separated hosts whose requests authenticate with the session cookie.
  TOK_STATEFUL_DOMAINS: z.string().optional(),
  TOK_TOKEN_PREFIX: z.string().optional(),

  MAIL_MAILER: z.string().default('log'),
  MAIL_HOST: z.string().default('127.0.0.1'),
  MAIL_PORT: z.coerce.number().int().positive().default(587),
  MAIL_USERNAME: z.string().optional(),
  MAIL_PASSWORD: z.string().optional(),
  MAIL_FROM_ADDRESS: z.email().default('hello@example.com'),
  MAIL_FROM_NAME: z.string().optional(),

  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).optional(),
})

export default env

declare module 'kiln-framework' {
  // Merges the declared variables into Kiln's env type: empty by design.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface KilnEnv extends EnvValues<typeof env> {}
}
