import { z } from 'zod'
import { configDefiner } from '../config/define-config.ts'

/**
 * The schema of `config/cors.ts` (Laravel's shape).
 *
 * @example
 * ```ts
 * // config/cors.ts — an SPA on another origin calling the API with cookies
 * export default defineConfig({
 *   paths: ['api/*', 'tok/csrf-cookie', 'login', 'logout', 'user'],
 *   allowed_origins: ['https://spa.example.com', 'https://*.example.com'],
 *   supports_credentials: true,
 * })
 * ```
 */
export const corsConfigSchema = z.strictObject({
  /** Routed paths (without the base path) that answer CORS; `*` matches anything. */
  paths: z.array(z.string()).default(['api/*', 'tok/csrf-cookie', 'login', 'logout', 'user', 'broadcasting/auth']),
  /** Exact origins, `*`, or wildcards such as `https://*.example.com`. */
  allowed_origins: z.array(z.string()).default([]),
  allowed_methods: z.array(z.string()).default(['*']),
  allowed_headers: z.array(z.string()).default(['*']),
  exposed_headers: z.array(z.string()).default([]),
  max_age: z.number().int().min(0).default(0),
  supports_credentials: z.boolean().default(false),
})

/**
 * Declares `config/cors.ts` with its keys checked: `tsc` rejects a key this file does not have, as boot does.
 *
 * @example
 * ```ts
 * // config/cors.ts
 * export default defineCorsConfig({})
 * ```
 */
export const defineCorsConfig = configDefiner(corsConfigSchema)

/** The parsed `config/cors.ts`. */
export type CorsConfig = z.output<typeof corsConfigSchema>
