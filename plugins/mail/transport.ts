import type { Application, DriverResolver } from '../../core/index.ts'
import type { MailMessage, SentMessage } from './message.ts'

/**
 * A mail transport: hands a rendered message to whatever delivers it. The
 * plugin brings `log` and `smtp`; `Mail.extend(driver, resolver)` adds one.
 *
 * @example
 * ```ts
 * class ArrayTransport implements MailTransport {
 *   readonly messages: MailMessage[] = []
 *   async send(message: MailMessage) {
 *     this.messages.push(message)
 *     return { messageId: String(this.messages.length), accepted: message.to.map((to) => to.address), rejected: [] }
 *   }
 * }
 * ```
 */
export interface MailTransport {
  send(message: MailMessage): Promise<SentMessage>
  /** Called when the app closes (or the mailer is purged). */
  close?(): unknown
}

/** Builds a transport for one mailer of config/mail.ts. */
export type MailTransportResolver<C = Record<string, unknown>> = DriverResolver<MailTransport, Application, C>
