import type { DevPages } from '../../core/index.ts'
import type { MailMessage, SentMessage } from './message.ts'

/** One mail the mail page shows. */
export interface RecordedMail {
  /** Counts up from 1 in this process: the page's address for it (`/_kiln/mail/3`). */
  id: number
  message: MailMessage
  /** The mailer of config/mail.ts that sent it. */
  mailer: string
  messageId: string
  sentAt: Date
}

// Enough for a morning's work; a process that sends more keeps only the latest.
const KEPT = 50

/**
 * The mail sent in this `kiln dev` process, newest first, at most the last
 * 50: what `/_kiln/mail` lists. Held in memory only, never written anywhere.
 *
 * @example
 * ```ts
 * const mailbox = new DevMailbox()
 * mailbox.record(message, 'log', sent)
 * mailbox.find(1)?.message.subject // 'Verify your email address'
 * ```
 */
export class DevMailbox {
  private readonly mails: RecordedMail[] = []
  private next = 1

  /** Keeps a mail a transport took. @example `mailbox.record(message, 'log', sent)` */
  record(message: MailMessage, mailer: string, sent: SentMessage): RecordedMail {
    const mail = { id: this.next++, message, mailer, messageId: sent.messageId, sentAt: new Date() }
    this.mails.unshift(mail)
    this.mails.length = Math.min(this.mails.length, KEPT)
    return mail
  }

  /** Newest first. @example `mailbox.list()[0]?.message.subject` */
  list(): readonly RecordedMail[] {
    return this.mails
  }

  /** @example `mailbox.find(3)` */
  find(id: number): RecordedMail | undefined {
    return this.mails.find((mail) => mail.id === id)
  }
}

// Keyed by kiln dev's dev pages, which live as long as its process: the mail outlives each reload of the app.
const mailboxes = new WeakMap<DevPages, DevMailbox>()

/**
 * The mailbox of this `kiln dev` process.
 *
 * @example
 * ```ts
 * if (app.dev) devMailbox(app.dev).list()
 * ```
 */
export function devMailbox(dev: DevPages): DevMailbox {
  let mailbox = mailboxes.get(dev)
  if (!mailbox) mailboxes.set(dev, (mailbox = new DevMailbox()))
  return mailbox
}
