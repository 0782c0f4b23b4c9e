import { z } from 'zod'
import { configDefiner } from '../config/define-config.ts'
import { trustedProxyProblem } from './proxy/trusted-proxies.ts'

/**
 * `trusted_proxies`: a list, or one comma-separated string (a `TRUSTED_PROXIES`
 * variable as it is), made a list of trimmed entries; each entry checked.
 */
const trustedProxies = z.union([z.string(), z.array(z.string())]).transform((value, ctx) => {
  const entries = (typeof value === 'string' ? value.split(',') : value).map((entry) => entry.trim()).filter((entry) => entry !== '')
  for (const entry of entries) {
    const problem = trustedProxyProblem(entry)
    if (problem) ctx.issues.push({ code: 'custom', message: problem, input: entry })
  }
  return entries
})

/**
 * The schema of `config/http.ts`.
 *
 * @example
 * ```ts
 * // config/http.ts
 * export default defineConfig({ body_limit: 2_000_000 })
 * ```
 */
export const httpConfigSchema = z.strictObject({
  /** Largest accepted request body in bytes; larger gets 413. */
  body_limit: z.number().int().positive().default(1_000_000),
  /** Files served for GET requests that no route answers (relative to the app root); false turns it off. */
  public_dir: z.union([z.string().min(1), z.literal(false)]).default('public'),
  /**
   * The reverse proxies and load balancers in front of the app: addresses,
   * CIDR ranges (IPv4 and IPv6), the named ranges `loopback`, `private`
   * (or `uniquelocal`) and `linklocal`, or `*` (trust whatever peer
   * connects: only when nothing can reach the app but through the proxy).
   * A list, or one comma-separated string. Only a trusted peer's
   * `X-Forwarded-*` and `Forwarded` headers are read (docs/http.md, Behind a
   * proxy). Default: none.
   */
  trusted_proxies: trustedProxies.default([]),
  /**
   * The health route's path (Laravel 11's `/up`), or false for none (the
   * default). `GET <path>` answers 200 `{"message":"Up."}` once the app has
   * booted: no session, CSRF, database or throttle. `GET <path>?ready`
   * runs the readiness checks (`app.service('health')`: the database, every
   * Redis the configured stores use, what plugins add) and answers 200, or
   * 503 `{"message":..., "checks":{...}}` naming what is down. The request
   * log writes both at `debug`. Under `APP_BASE_PATH` it is `<base><path>`.
   */
  health: z.union([z.literal(false), z.string().regex(/^(\/[\w.~-]+)+$/, 'expected a path such as "/up"')]).default(false),
  /**
   * Who may show the app's `web` pages in a frame (clickjacking): `'sameorigin'`
   * (the default: pages of the app itself) sends `X-Frame-Options: SAMEORIGIN`
   * and `frame-ancestors 'self'` in the Content-Security-Policy; `'deny'`
   * sends `DENY` and `frame-ancestors 'none'`; `false` sends neither (a page
   * that must be framed elsewhere can also set its own `frame-ancestors`).
   * A response that already has a policy gets the directive added to it.
   */
  frame_options: z.union([z.enum(['sameorigin', 'deny']), z.literal(false)]).default('sameorigin'),
  /** Log each request (method, path, status, time) in development. */
  request_log: z.boolean().optional(),
  /** A redis store of config/storage.ts to share `throttle` counters across processes; anything else counts in memory. */
  throttle_store: z.string().default('memory'),
  /**
   * Hard cap on one incoming websocket frame, in bytes. Larger frames close
   * the socket with 1009 before they are buffered; endpoints set their own
   * (smaller) limits under it and answer with a protocol error instead.
   */
  websocket_max_payload: z.number().int().positive().default(1_048_576),
  /**
   * Response compression (brotli or gzip, as the client accepts). Static
   * assets are compressed once per file version at the highest level;
   * HTML, JSON and other text bodies per response. Turn it off when a proxy
   * or CDN in front of the app compresses.
   */
  compression: z
    .strictObject({
      enabled: z.boolean().default(true),
      /** Bodies (and files) smaller than this many bytes are sent as they are. */
      threshold: z.number().int().nonnegative().default(1024),
      /** Brotli quality (0-11) for responses compressed per request; higher costs more CPU. */
      brotli_quality: z.number().int().min(0).max(11).default(4),
      /** Gzip level (1-9) for responses compressed per request. */
      gzip_level: z.number().int().min(1).max(9).default(6),
    })
    .prefault({}),
})

/**
 * Declares `config/http.ts` with its keys checked: `tsc` rejects a key this file does not have, as boot does.
 *
 * @example
 * ```ts
 * // config/http.ts
 * export default defineHttpConfig({})
 * ```
 */
export const defineHttpConfig = configDefiner(httpConfigSchema)

/** The validated `config/http.ts`. */
export type HttpConfig = z.output<typeof httpConfigSchema>
