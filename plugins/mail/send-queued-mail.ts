import { currentApp, Job } from '../../core/index.ts'
import type { MailMessage } from './message.ts'

/**
 * The job `Mail.to(user).queue(mailable)` pushes: the message rendered when
 * it was queued, as JSON, so a worker needs neither the mailable's class nor
 * its models, and later changes to them do not leak in.
 *
 * @example
 * ```ts
 * await SendQueuedMail.dispatch(message, 'smtp')
 * ```
 */
export class SendQueuedMail extends Job {
  static tries = 3
  static backoff = [10_000, 60_000]

  constructor(
    public message: MailMessage,
    public mailer: string | null,
  ) {
    super()
  }

  async handle(): Promise<void> {
    await currentApp()
      .service('mail')
      .sendMessage(this.message, this.mailer ?? undefined)
  }
}
