import { currentApp } from '../../core/index.ts'
import type { MailFake } from './mail-fake.ts'
import type { MailManager, PendingMail, QueueMailOptions } from './mail-manager.ts'
import type { Mailable } from './mailable.ts'
import type { AddressLike, SentMessage } from './message.ts'
import type { MailTransport, MailTransportResolver } from './transport.ts'

function manager(): MailManager {
  return currentApp().service('mail')
}

/**
 * Mail for the app in scope.
 *
 * @example
 * ```ts
 * await Mail.to(user).send(new Welcome(user))
 * await Mail.to(user).queue(new Welcome(user))
 * await Mail.mailer('smtp').to('ops@example.com').send(new Report())
 * Mail.extend('array', () => new ArrayTransport())
 * const fake = Mail.fake() // in tests
 * ```
 */
export const Mail = {
  to(address: AddressLike | readonly AddressLike[], name?: string): PendingMail {
    return manager().to(address, name)
  },
  mailer(name: string): PendingMail {
    return manager().mailer(name)
  },
  /** Sends a mailable to the recipients it names itself. */
  send(mailable: Mailable, mailer?: string): Promise<SentMessage | undefined> {
    return manager().send(mailable, mailer)
  },
  queue(mailable: Mailable, options?: QueueMailOptions): Promise<void> {
    return manager().queue(mailable, undefined, options)
  },
  extend<C = Record<string, unknown>>(driver: string, resolver: MailTransportResolver<C>): void {
    manager().extend(driver, resolver)
  },
  transport(name?: string): MailTransport {
    return manager().transport(name)
  },
  fake(): MailFake {
    return manager().fake()
  },
  restore(): void {
    manager().restore()
  },
}
