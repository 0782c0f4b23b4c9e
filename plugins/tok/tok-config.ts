import { z } from 'zod'
import { configDefiner } from '../../core/config/define-config.ts'

/**
 * The schema of `config/tok.ts`.
 *
 * @example
 * ```ts
 * export default defineConfig({
 *   // Absent: localhost, 127.0.0.1 and APP_URL's host (with ports). Listing domains replaces those defaults.
 *   stateful: ['localhost:3000', 'spa.example.com'],
 *   guard: ['web'],
 *   expiration: 60 * 24 * 30,
 *   token_prefix: 'kiln_',
 *   abilities: { 'orders:read': 'Read your orders', 'orders:write': 'Place and change orders' },
 * })
 * ```
 */
export const tokConfigSchema = z.strictObject({
  /** Domains (host[:port], `*.example.com`) whose requests get cookie/session auth on the API. Filled with the defaults when absent. */
  stateful: z.array(z.string()).optional(),
  /** Session guards asked before the Bearer token. */
  guard: z.array(z.string()).default(['web']),
  /** Default token lifetime in minutes; null means tokens never expire. */
  expiration: z.number().positive().nullable().default(null),
  /** Prepended to new secrets so secret scanners can spot leaked tokens. At most 64 characters: longer ones are not read as a prefix. */
  token_prefix: z
    .string()
    .regex(/^[A-Za-z0-9_-]*$/, 'use letters, digits, "_" and "-" only')
    .max(64, 'at most 64 characters')
    .default(''),
  /**
   * The verified-token cache, off by default. On, a token verified once is
   * taken at its word for `ttl` seconds (never past its own expiry) without
   * reading the database, for at most `max` tokens per process. Revoking,
   * deleting or changing a token (or its user) through the models empties
   * its entry at once; with more than one process, give `redis` so they tell
   * each other.
   */
  cache: z
    // `cache: true` is short for `{ enabled: true }` with the defaults.
    .preprocess(
      (value) => (typeof value === 'boolean' ? { enabled: value } : value),
      z.strictObject({
        enabled: z.boolean().default(false),
        /** Seconds an entry counts (at most 300). */
        ttl: z.number().positive().max(300).default(10),
        /** Most tokens kept per process. */
        max: z.number().int().positive().default(10_000),
        /** Redis URL through which processes invalidate each other's entries. Required when more than one process serves the app. */
        redis: z.string().optional(),
        /** How long publishing an invalidation may wait on Redis. */
        redis_timeout_ms: z.number().int().positive().default(1000),
      }),
    )
    .prefault({}),
  /**
   * The abilities a user may give a token from the app's pages, each with
   * the label people read (`{ 'orders:read': 'Read your orders' }`), in the
   * order they are shown. Names are what `tokenCan()` and `abilities:`
   * middleware check: letters, digits and `_ - . :`, or `*` for all.
   */
  abilities: z
    .record(
      z
        .string()
        .regex(/^(\*|[A-Za-z0-9_.:-]+)$/, 'an ability is letters, digits and "_ - . :", or "*"')
        .max(100, 'at most 100 characters')
        .refine((name) => name !== '__proto__' && name !== 'constructor' && name !== 'prototype', 'this name is reserved'),
      z.string().trim().min(1, 'give each ability a label').max(200, 'a label has at most 200 characters'),
    )
    .default({}),
})

/**
 * Declares `config/tok.ts` with its keys checked: `tsc` rejects a key this file does not have, as boot does.
 *
 * @example
 * ```ts
 * // config/tok.ts
 * export default defineTokConfig({})
 * ```
 */
export const defineTokConfig = configDefiner(tokConfigSchema)

/** The parsed `config/tok.ts`. */
export type TokConfig = z.output<typeof tokConfigSchema>
