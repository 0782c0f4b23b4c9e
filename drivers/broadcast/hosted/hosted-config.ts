import { z } from 'zod'

const required = (variable: string) => z.string({ error: `missing (set ${variable})` }).min(1, `empty (set ${variable})`)

/**
 * What a `hosted` connection must have, and the environment variable the
 * starter config reads each from, so a missing one is named at boot.
 *
 * @example
 * ```ts
 * hostedConfigSchema.parse({ driver: 'hosted', app_id: '1', key: 'k', secret: 's' })
 * ```
 */
export const hostedConfigSchema = z.looseObject({
  app_id: required('PUSHER_APP_ID'),
  key: required('PUSHER_APP_KEY'),
  secret: required('PUSHER_APP_SECRET'),
  cluster: z.string().optional(),
  host: z.string().optional(),
  port: z.union([z.string(), z.number()]).optional(),
  scheme: z.enum(['http', 'https']).optional(),
  useTLS: z.boolean().optional(),
  timeout: z.number().int().positive().optional(),
})

/**
 * Throws one error naming every missing or invalid setting of a `hosted`
 * connection (and the variable to set).
 *
 * @example
 * ```ts
 * checkHostedConfig('hosted', config) // Error: ... app_id: missing (set PUSHER_APP_ID); key: ...
 * ```
 */
export function checkHostedConfig(name: string, config: unknown): void {
  const result = hostedConfigSchema.safeParse(config)
  if (result.success) return
  const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')
  throw new Error(`config/broadcasting.ts connections.${name} (hosted): ${problems}.`)
}
