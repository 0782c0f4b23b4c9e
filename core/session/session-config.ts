import { z } from 'zod'
import { configDefiner } from '../config/define-config.ts'

const storeSchema = z.looseObject({ driver: z.string() })

/**
 * The schema of `config/session.ts`. `driver` names one of `stores`; change it
 * (or `SESSION_DRIVER`) to move sessions between memory, files and Redis with
 * no code change.
 *
 * @example
 * ```ts
 * // config/session.ts
 * export default defineConfig(({ env }) => ({
 *   driver: env.get('SESSION_DRIVER', 'fs'),
 *   lifetime: 120,
 *   domain: env.get('SESSION_DOMAIN'),
 * }))
 * ```
 */
export const sessionConfigSchema = z.strictObject({
  /** The store sessions live in; defaults to `SESSION_DRIVER`, else `fs`. */
  driver: z.string().optional(),
  /** Minutes of inactivity before a session expires. */
  lifetime: z.number().positive().default(120),
  /**
   * The chance that a request sweeps expired sessions out of a store that
   * does not expire them itself (fs, memory): `[2, 100]` is 2 in 100.
   * `kiln session:gc` sweeps on demand.
   */
  lottery: z.tuple([z.number().int().nonnegative(), z.number().int().positive()]).default([2, 100]),
  /**
   * How many stored sessions one lottery sweep looks at, at most: each
   * sweep goes on from where the last one stopped, so a sweep costs the same
   * with a thousand sessions or a million. At `[2, 100]` the default 100
   * looks at two records per request, more than requests can create.
   */
  sweep_limit: z.number().int().positive().default(100),
  /** With the redis store: how long a request waits on Redis before it gets 503. */
  redis_timeout_ms: z.number().int().positive().default(1000),
  /** Drop the cookie when the browser closes. */
  expire_on_close: z.boolean().default(false),
  /** The session cookie's name; left out, the app's name as a slug plus `_session` (`my_shop_session`). */
  cookie: z
    .string()
    .regex(/^[\w.-]+$/)
    .optional(),
  path: z.string().default('/'),
  /** Set it (e.g. `.example.com`) so that an SPA on a subdomain shares the session. */
  domain: z.string().optional(),
  /** Cookies with `Secure`. Left out: when APP_URL is https, or the request came over https (a trusted proxy's word counts: `http.trusted_proxies`). */
  secure: z.boolean().optional(),
  http_only: z.boolean().default(true),
  same_site: z.enum(['lax', 'strict', 'none']).default('lax'),
  stores: z.record(z.string(), storeSchema).default({}),
  /** Paths (routed, without the base path) that skip CSRF checks: `webhooks/*`. */
  csrf_except: z.array(z.string()).default([]),
  /** Cookies left unencrypted, for JavaScript to read. */
  unencrypted_cookies: z.array(z.string()).default(['XSRF-TOKEN']),
})

/**
 * Declares `config/session.ts` with its keys checked: `tsc` rejects a key this file does not have, as boot does.
 *
 * @example
 * ```ts
 * // config/session.ts
 * export default defineSessionConfig({})
 * ```
 */
export const defineSessionConfig = configDefiner(sessionConfigSchema)

/** The parsed `config/session.ts`; the session provider fills in `cookie` when it is left out. */
export type SessionConfig = z.output<typeof sessionConfigSchema> & { cookie: string }
