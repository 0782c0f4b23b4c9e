import { randomUUID } from 'node:crypto'
import type { Logger } from '../../core/index.ts'
import { formatAddress, type MailMessage, type SentMessage } from './message.ts'
import type { MailTransport } from './transport.ts'

/**
 * The `log` transport, a new app's default: every mail is written to the
 * app's log as text a person can read in the terminal (its headers, then
 * the text body with each link's address), and nothing leaves the machine.
 * The log holds whatever the mail holds, reset links included: use a real
 * transport once the app has users.
 *
 * @example
 * ```ts
 * new LogTransport(app.logger).send(message) // INFO: Mail to Ada <ada@example.com>: Reset your password ...
 * ```
 */
export class LogTransport implements MailTransport {
  constructor(private readonly logger: Logger) {}

  async send(message: MailMessage): Promise<SentMessage> {
    this.logger.info(formatForLog(message))
    const recipients = [...message.to, ...message.cc, ...message.bcc].map((a) => a.address)
    return { messageId: `<${randomUUID()}@log>`, accepted: recipients, rejected: [] }
  }
}

/**
 * A message as the log shows it.
 *
 * @example
 * ```ts
 * formatForLog(message) // 'Mail to Ada <ada@example.com>: Welcome\nFrom: ...\n\nHello Ada, ...'
 * ```
 */
export function formatForLog(message: MailMessage): string {
  const rule = '-'.repeat(60)
  const lines = [`Mail to ${message.to.map(formatAddress).join(', ')}: ${message.subject}`, rule, `From: ${formatAddress(message.from)}`]
  if (message.cc.length > 0) lines.push(`Cc: ${message.cc.map(formatAddress).join(', ')}`)
  if (message.bcc.length > 0) lines.push(`Bcc: ${message.bcc.map(formatAddress).join(', ')}`)
  if (message.replyTo.length > 0) lines.push(`Reply-To: ${message.replyTo.map(formatAddress).join(', ')}`)
  lines.push(`Subject: ${message.subject}`, '', message.text, rule)
  return lines.join('\n')
}
