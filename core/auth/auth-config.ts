import { z } from 'zod'
import { configDefiner } from '../config/define-config.ts'

/** A session guard's remember-me tokens: the table, the cookie, their lifetime in days, the database connection. */
const rememberSchema = z.strictObject({
  table: z.string().min(1).default('remember_tokens'),
  cookie: z
    .string()
    .regex(/^[\w-]+$/)
    .optional(),
  days: z.number().int().positive().max(3650).default(400),
  connection: z.string().optional(),
})
const guardSchema = z.looseObject({ driver: z.string(), provider: z.string().optional(), remember: rememberSchema.optional() })
const providerSchema = z.looseObject({ driver: z.string() })

/**
 * The schema of `config/auth.ts`, in the spec's shape.
 *
 * @example
 * ```ts
 * // config/auth.ts
 * import { User } from '../app/models/user.ts'
 * export default defineConfig({
 *   defaults: { guard: 'web' },
 *   guards: {
 *     web: { driver: 'session', provider: 'users' },
 *     tok: { driver: 'tok', provider: 'users' },
 *   },
 *   providers: { users: { driver: 'model', model: () => User } },
 * })
 * ```
 */
export const authConfigSchema = z.strictObject({
  defaults: z.strictObject({ guard: z.string().default('web') }).default({ guard: 'web' }),
  guards: z.record(z.string(), guardSchema).default({ web: { driver: 'session', provider: 'users' } }),
  providers: z.record(z.string(), providerSchema).default({}),
  /**
   * The rate limiter (`RateLimiter.for(name, ...)`) that `ctx.auth.checkPassword`
   * counts against, keyed as it says (by the user, best). Without one, a
   * check is still limited to one per request.
   */
  password_limiter: z.string().min(1).optional(),
  /** Where `guest` sends a user who is already logged in. */
  redirect_authenticated: z.string().default('/'),
})

/**
 * Declares `config/auth.ts` with its keys checked: `tsc` rejects a key this file does not have, as boot does.
 *
 * @example
 * ```ts
 * // config/auth.ts
 * export default defineAuthConfig({})
 * ```
 */
export const defineAuthConfig = configDefiner(authConfigSchema)
