import type { Transporter } from 'nodemailer'
import { KilnError } from '../../core/index.ts'
import { smtpConfigSchema, type SmtpConfig } from './mail-config.ts'
import type { MailMessage, SentMessage } from './message.ts'
import type { MailTransport } from './transport.ts'

/**
 * The `smtp` transport, on nodemailer. nodemailer is imported on the first
 * send, so an app that only logs its mail never loads it; the connection
 * is nodemailer's, closed with the app.
 *
 * @example
 * ```ts
 * const smtp = new SmtpTransport('smtp', { driver: 'smtp', host: 'smtp.example.com', port: 587 })
 * await smtp.send(message)
 * ```
 */
export class SmtpTransport implements MailTransport {
  private readonly config: SmtpConfig
  private transporter?: Promise<Transporter>

  constructor(name: string, config: Record<string, unknown>) {
    const parsed = smtpConfigSchema.safeParse(config)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!
      throw new KilnError(`Invalid configuration in config/mail.ts: mailers.${name}.${issue.path.join('.')}: ${issue.message}`, { code: 'E_CONFIG' })
    }
    this.config = parsed.data
  }

  async send(message: MailMessage): Promise<SentMessage> {
    const transporter = await (this.transporter ??= this.connect())
    const info = await transporter.sendMail({
      from: message.from,
      to: message.to,
      cc: message.cc,
      bcc: message.bcc,
      replyTo: message.replyTo,
      subject: message.subject,
      text: message.text,
      html: message.html,
      headers: message.headers,
    })
    const addresses = (list: unknown[] | undefined) => (list ?? []).map((a) => (typeof a === 'string' ? a : (a as { address: string }).address))
    return { messageId: String(info.messageId), accepted: addresses(info.accepted), rejected: addresses(info.rejected) }
  }

  /** nodemailer's transporter, for what Kiln does not wrap (`verify()`). @example `await (await smtp.getInstance()).verify()` */
  getInstance(): Promise<Transporter> {
    return (this.transporter ??= this.connect())
  }

  async close(): Promise<void> {
    const transporter = this.transporter
    this.transporter = undefined
    if (transporter) (await transporter.catch(() => undefined))?.close()
  }

  private async connect(): Promise<Transporter> {
    const nodemailer = (await import('nodemailer')).default
    const c = this.config
    const timeouts = { connectionTimeout: c.timeout_ms, greetingTimeout: c.timeout_ms, socketTimeout: c.timeout_ms }
    const auth = c.username !== undefined ? { auth: { user: c.username, pass: c.password ?? '' } } : {}
    const tls = { tls: { rejectUnauthorized: c.tls_reject_unauthorized } }
    if (c.url) return nodemailer.createTransport({ url: c.url, ...timeouts, ...tls } as Parameters<typeof nodemailer.createTransport>[0])
    return nodemailer.createTransport({ host: c.host, port: c.port, secure: c.secure ?? c.port === 465, ...auth, ...timeouts, ...tls })
  }
}
