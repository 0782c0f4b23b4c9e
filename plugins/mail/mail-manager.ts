import { DriverManager, KilnError, type Application } from '../../core/index.ts'
import { MailFake } from './mail-fake.ts'
import type { Mailable } from './mailable.ts'
import type { AddressLike, MailMessage, SentMessage } from './message.ts'
import { SendQueuedMail } from './send-queued-mail.ts'
import type { MailTransport, MailTransportResolver } from './transport.ts'

/** Where a queued mail goes: a connection of config/queue.ts, a queue name, a delay in milliseconds. */
export interface QueueMailOptions {
  connection?: string
  queue?: string
  delay?: number
}

/**
 * The app's mail: the transport registry (a `DriverManager` over the
 * `mailers` of config/mail.ts), sending and queueing mailables, and the fake.
 *
 * @example
 * ```ts
 * const mail = app.service('mail')
 * mail.extend('array', () => new ArrayTransport())
 * await mail.to('ada@example.com').send(new Welcome())
 * ```
 */
export class MailManager {
  readonly transports: DriverManager<MailTransport, Application>
  private faked?: MailFake
  private readonly sentListeners: Array<(message: MailMessage, mailer: string, sent: SentMessage) => void> = []

  constructor(private readonly app: Application) {
    this.transports = new DriverManager<MailTransport, Application>(app, app.config, { kind: 'mail transport', file: 'mail', connectionsKey: 'mailers' })
  }

  /** Registers a transport driver. @example `mail.extend('array', () => new ArrayTransport())` */
  extend<C = Record<string, unknown>>(driver: string, resolver: MailTransportResolver<C>): this {
    this.transports.extend(driver, resolver)
    return this
  }

  /** A mailer's transport (the default when omitted). @example `mail.transport('smtp')` */
  transport(name?: string): MailTransport {
    return this.transports.connection(name)
  }

  /** Mail for these recipients. @example `await mail.to(user).send(new Welcome(user))` */
  to(address: AddressLike | readonly AddressLike[], name?: string): PendingMail {
    return new PendingMail(this).to(address, name)
  }

  /** Mail through a named mailer. @example `await mail.mailer('smtp').to(user).send(new Welcome(user))` */
  mailer(name: string): PendingMail {
    return new PendingMail(this, name)
  }

  /**
   * Renders and sends a mailable (to the recipients it names), or records it
   * when faked. Resolves once the transport took it.
   *
   * @example
   * ```ts
   * await mail.send(new Welcome(user).to(user))
   * ```
   */
  async send(mailable: Mailable, mailer?: string): Promise<SentMessage | undefined> {
    const message = await mailable.toMessage(this.app)
    if (this.faked) {
      this.faked.sentMails.push(mailable)
      return undefined
    }
    return this.sendMessage(message, mailer)
  }

  /**
   * Renders a mailable now and queues its sending (`SendQueuedMail`), on
   * config/mail.ts `queue` unless told otherwise.
   *
   * @example
   * ```ts
   * await mail.queue(new Welcome(user).to(user), undefined, { queue: 'mail' })
   * ```
   */
  async queue(mailable: Mailable, mailer?: string, options: QueueMailOptions = {}): Promise<void> {
    const message = await mailable.toMessage(this.app)
    if (this.faked) {
      this.faked.queuedMails.push(mailable)
      return
    }
    if (mailer !== undefined) this.assertMailer(mailer)
    const defaults = this.app.config.get<QueueMailOptions>('mail.queue', {})
    await this.app.service('queue').push(new SendQueuedMail(message, mailer ?? null), { ...defaults, ...options })
  }

  /**
   * Hands a rendered message to a transport: what a queued mail's job calls.
   *
   * @example
   * ```ts
   * await mail.sendMessage(message, 'smtp')
   * ```
   */
  async sendMessage(message: MailMessage, mailer?: string): Promise<SentMessage> {
    const name = mailer ?? this.transports.defaultConnection()
    const sent = await this.transport(name).send(message)
    for (const listener of this.sentListeners) listener(message, name, sent)
    return sent
  }

  /**
   * Calls `listener` with each message a transport took (not faked mail),
   * the mailer's name and the transport's report: what `kiln dev`'s mail
   * page records.
   *
   * @example
   * ```ts
   * mail.onSent((message, mailer) => console.log(`${mailer}: ${message.subject}`))
   * ```
   */
  onSent(listener: (message: MailMessage, mailer: string, sent: SentMessage) => void): this {
    this.sentListeners.push(listener)
    return this
  }

  /** Records mail instead of sending it. @example `const fake = mail.fake()` */
  fake(): MailFake {
    return (this.faked = new MailFake())
  }

  /** Ends `fake()`. @example `mail.restore()` */
  restore(): void {
    this.faked = undefined
  }

  /**
   * Throws, naming the configured mailers, when the default mailer
   * (`MAIL_MAILER`) or `name` is not configured: checked at boot, so a typo
   * stops the app rather than the first password reset.
   *
   * @example
   * ```ts
   * mail.assertMailer() // KilnError: The mailer "smtpp" ...
   * ```
   */
  assertMailer(name: string = this.transports.defaultConnection()): void {
    const configured = this.transports.connectionNames()
    if (!configured.includes(name)) {
      throw new KilnError(`The mailer "${name}" is not configured in config/mail.ts. Configured mailers: ${configured.join(', ')}.`, {
        code: 'E_MAIL_MAILER',
        hint: 'Set MAIL_MAILER to one of them, or add it under `mailers`.',
      })
    }
  }
}

/**
 * Recipients (and a mailer) waiting for a mailable: what `Mail.to()` and
 * `Mail.mailer()` return.
 *
 * @example
 * ```ts
 * await Mail.to(user).cc('boss@example.com').send(new OrderShipped(order))
 * await Mail.to(user).queue(new Welcome(user))
 * ```
 */
export class PendingMail {
  private readonly recipients: Array<(mail: Mailable) => void> = []

  constructor(
    private readonly manager: MailManager,
    private readonly mailerName?: string,
  ) {}

  /** @example `Mail.to(user)` */
  to(address: AddressLike | readonly AddressLike[], name?: string): this {
    this.recipients.push((mail) => mail.to(address, name))
    return this
  }

  /** @example `Mail.to(user).cc('boss@example.com')` */
  cc(address: AddressLike | readonly AddressLike[], name?: string): this {
    this.recipients.push((mail) => mail.cc(address, name))
    return this
  }

  /** @example `Mail.to(user).bcc('archive@example.com')` */
  bcc(address: AddressLike | readonly AddressLike[], name?: string): this {
    this.recipients.push((mail) => mail.bcc(address, name))
    return this
  }

  /** Sends now. @example `await Mail.to(user).send(new Welcome(user))` */
  send(mailable: Mailable): Promise<SentMessage | undefined> {
    return this.manager.send(this.fill(mailable), this.mailerName)
  }

  /** Queues the sending. @example `await Mail.to(user).queue(new Welcome(user), { queue: 'mail' })` */
  queue(mailable: Mailable, options: QueueMailOptions = {}): Promise<void> {
    return this.manager.queue(this.fill(mailable), this.mailerName, options)
  }

  private fill(mailable: Mailable): Mailable {
    for (const add of this.recipients) add(mailable)
    return mailable
  }
}
