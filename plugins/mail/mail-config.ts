import { z } from 'zod'
import { configDefiner } from '../../core/config/define-config.ts'

/**
 * The schema of `config/mail.ts`.
 *
 * @example
 * ```ts
 * export default defineConfig(({ env }) => ({
 *   default: env.get('MAIL_MAILER', 'log'),
 *   mailers: {
 *     log: { driver: 'log' },
 *     smtp: { driver: 'smtp', host: env.get('MAIL_HOST', '127.0.0.1'), port: env.number('MAIL_PORT', 587) },
 *   },
 *   from: { address: env.get('MAIL_FROM_ADDRESS', 'hello@example.com'), name: env.get('APP_NAME', 'Kiln') },
 * }))
 * ```
 */
export const mailConfigSchema = z.strictObject({
  /** The mailer used when none is named: `MAIL_MAILER`, else `log`. */
  default: z.string().optional(),
  /** Named mailers; `driver` picks the transport (`log`, `smtp`, or one added with `Mail.extend`). `log` and `smtp` are always there. */
  mailers: z.record(z.string(), z.looseObject({ driver: z.string() })).default({}),
  /** The sender when a mailable names none. */
  from: z.strictObject({ address: z.string(), name: z.string().optional() }).optional(),
  /** Where `Mail.to(user).queue(mailable)` pushes its job: a connection of config/queue.ts and a queue name. */
  queue: z.strictObject({ connection: z.string().optional(), queue: z.string().optional() }).prefault({}),
})

/**
 * Declares `config/mail.ts` with its keys checked: `tsc` rejects a key this file does not have, as boot does.
 *
 * @example
 * ```ts
 * // config/mail.ts
 * export default defineMailConfig({})
 * ```
 */
export const defineMailConfig = configDefiner(mailConfigSchema)

/** The parsed `config/mail.ts`. */
export type MailConfig = z.output<typeof mailConfigSchema>

/**
 * The options of an `smtp` mailer, checked when the mailer is first used.
 *
 * @example
 * ```ts
 * smtp: { driver: 'smtp', host: 'smtp.example.com', port: 587, username: 'apikey', password: env.get('MAIL_PASSWORD') }
 * ```
 */
export const smtpConfigSchema = z.object({
  driver: z.string(),
  /** `smtp://user:pass@host:port` or `smtps://...`: takes the place of host, port and credentials. */
  url: z.string().optional(),
  host: z.string().default('127.0.0.1'),
  port: z.number().int().positive().max(65535).default(587),
  /** True for implicit TLS (port 465); false upgrades with STARTTLS when the server offers it. */
  secure: z.boolean().optional(),
  username: z.string().optional(),
  password: z.string().optional(),
  /** False accepts a self-signed certificate (a local test server); keep true in production. */
  tls_reject_unauthorized: z.boolean().default(true),
  /** How long to wait for the server (connecting, greeting, each reply). */
  timeout_ms: z.number().int().positive().default(10_000),
})

/** A parsed `smtp` mailer block. */
export type SmtpConfig = z.output<typeof smtpConfigSchema>
