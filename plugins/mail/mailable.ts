import { currentApp, KilnError, type Application } from '../../core/index.ts'
import { toAddresses, type Address, type AddressLike, type MailMessage } from './message.ts'
import { htmlToText } from './html-to-text.ts'

/** Who and what a mail is about, as `envelope()` returns it. */
export interface Envelope {
  subject?: string
  from?: AddressLike
  to?: AddressLike | AddressLike[]
  cc?: AddressLike | AddressLike[]
  bcc?: AddressLike | AddressLike[]
  replyTo?: AddressLike | AddressLike[]
  headers?: Record<string, string>
}

/** A mail's bodies, as `content()` returns them. */
export interface Content {
  /** The HTML view, rendered with the app's view engine. */
  view?: string
  /** The plain-text view; without one, the text is made from the HTML. */
  text?: string
  /** HTML given as it is, instead of a view. */
  htmlString?: string
  /** View data on top of the mailable's public properties. */
  with?: Record<string, unknown>
}

const HEADER_NAME = /^[A-Za-z0-9-]+$/
const LINE_BREAK = /[\r\n]/

/**
 * A mail as a class, as Laravel's `Mailable`: its public properties are the
 * view's data; `build()` sets the rest with the fluent methods (or
 * `envelope()` and `content()` return it). Send it with
 * `Mail.to(user).send(new OrderShipped(order))`.
 *
 * @example
 * ```ts
 * import { Mailable } from 'kiln-framework/mail'
 *
 * export class OrderShipped extends Mailable {
 *   constructor(public order: { id: number }) {
 *     super()
 *   }
 *
 *   build() {
 *     return this.subject(`Order ${this.order.id} has shipped`).view('emails/order-shipped')
 *   }
 * }
 * ```
 */
export abstract class Mailable {
  // Private fields (`#`): they stay out of the view data, which is the mailable's own properties.
  #to: Address[] = []
  #cc: Address[] = []
  #bcc: Address[] = []
  #replyTo: Address[] = []
  #from?: Address
  #subject?: string
  #view?: string
  #textView?: string
  #html?: string
  #data: Record<string, unknown> = {}
  #headers: Record<string, string> = {}
  #built = false
  #rendered?: MailMessage

  /** Sets the mail up with the fluent methods. */
  build?(): unknown
  /** Subject, sender and recipients, instead of (or besides) `build()`. */
  envelope?(): Envelope
  /** The bodies, instead of (or besides) `build()`. */
  content?(): Content

  /** Adds recipients (a user model works: its `email` and `name`). @example `mail.to(user)` */
  to(address: AddressLike | readonly AddressLike[], name?: string): this {
    this.#to.push(...toAddresses(address, name))
    return this
  }

  /** Adds copies. @example `mail.cc('boss@example.com')` */
  cc(address: AddressLike | readonly AddressLike[], name?: string): this {
    this.#cc.push(...toAddresses(address, name))
    return this
  }

  /** Adds blind copies. @example `mail.bcc('archive@example.com')` */
  bcc(address: AddressLike | readonly AddressLike[], name?: string): this {
    this.#bcc.push(...toAddresses(address, name))
    return this
  }

  /** Where replies go. @example `mail.replyTo('support@example.com', 'Support')` */
  replyTo(address: AddressLike | readonly AddressLike[], name?: string): this {
    this.#replyTo.push(...toAddresses(address, name))
    return this
  }

  /** The sender (config/mail.ts `from` otherwise). @example `mail.from('orders@example.com', 'Orders')` */
  from(address: AddressLike, name?: string): this {
    this.#from = toAddresses(address, name)[0]
    return this
  }

  /** The subject (the class name in words otherwise: "Order shipped"). @example `mail.subject('Your order')` */
  subject(subject: string): this {
    this.#subject = subject
    return this
  }

  /** The HTML view and extra data for it. @example `mail.view('emails/welcome', { plan })` */
  view(name: string, data: Record<string, unknown> = {}): this {
    this.#view = name
    return this.with(data)
  }

  /** The plain-text view (write links with triple braces: `{{{url}}}`). @example `mail.text('emails/welcome-text')` */
  text(name: string, data: Record<string, unknown> = {}): this {
    this.#textView = name
    return this.with(data)
  }

  /** HTML given as it is. @example `mail.html('<p>Hello</p>')` */
  html(html: string): this {
    this.#html = html
    return this
  }

  /** View data on top of the public properties. @example `mail.with({ total })` or `mail.with('total', 12)` */
  with(key: string | Record<string, unknown>, value?: unknown): this {
    if (typeof key === 'string') this.#data[key] = value
    else Object.assign(this.#data, key)
    return this
  }

  /** An extra header. @example `mail.header('X-Tag', 'welcome')` */
  header(name: string, value: string): this {
    if (!HEADER_NAME.test(name) || LINE_BREAK.test(value)) throw new KilnError(`"${name}" is not a header this mail can carry.`, { code: 'E_MAIL_HEADER' })
    this.#headers[name] = value
    return this
  }

  /** True when the mail goes to this address. @example `mail.hasTo(user.email)` */
  hasTo(address: AddressLike): boolean {
    return includes(this.#to, address)
  }

  /** @example `mail.hasCc('boss@example.com')` */
  hasCc(address: AddressLike): boolean {
    return includes(this.#cc, address)
  }

  /** @example `mail.hasBcc('archive@example.com')` */
  hasBcc(address: AddressLike): boolean {
    return includes(this.#bcc, address)
  }

  /** @example `mail.hasReplyTo('support@example.com')` */
  hasReplyTo(address: AddressLike): boolean {
    return includes(this.#replyTo, address)
  }

  /** @example `mail.hasFrom('orders@example.com')` (after it was sent or rendered) */
  hasFrom(address: AddressLike): boolean {
    return includes(this.#rendered ? [this.#rendered.from] : this.#from ? [this.#from] : [], address)
  }

  /** @example `mail.hasSubject('Reset your password')` (after it was sent or rendered) */
  hasSubject(subject: string): boolean {
    return (this.#rendered?.subject ?? this.#subject) === subject
  }

  /**
   * The message as it was sent (or rendered): subject, addresses, `html`
   * and `text`. Tests read links from it.
   *
   * @example
   * ```ts
   * const [mail] = fake.sent(ResetPassword)
   * const link = /https?:\S+/.exec(mail!.rendered!.text)![0]
   * ```
   */
  get rendered(): MailMessage | undefined {
    return this.#rendered
  }

  /**
   * Builds the message: `build()`, `envelope()` and `content()` once, then
   * the views rendered with the app's view engine.
   *
   * @example
   * ```ts
   * const message = await new Welcome(user).toMessage()
   * ```
   */
  async toMessage(app: Application = currentApp()): Promise<MailMessage> {
    if (!this.#built) {
      this.#built = true
      await this.build?.()
      this.#apply(this.envelope?.() ?? {}, this.content?.() ?? {})
    }
    if (this.#to.length === 0)
      throw new KilnError(`${this.constructor.name} has no recipient: use Mail.to(user).send(...) or to() in build().`, { code: 'E_MAIL_NO_RECIPIENT' })
    const data = { ...this.#viewData(), ...this.#data }
    const views = app.service('views')
    const html = this.#view ? await views.render(this.#view, data) : this.#html
    const text = this.#textView ? await views.render(this.#textView, data) : htmlToText(html ?? '')
    if (html === undefined && !this.#textView)
      throw new KilnError(`${this.constructor.name} has no body: give it a view(), html() or text().`, { code: 'E_MAIL_NO_BODY' })
    const subject = this.#subject ?? words(this.constructor.name)
    if (LINE_BREAK.test(subject)) throw new KilnError('A mail subject cannot hold a line break.', { code: 'E_MAIL_HEADER' })
    const configured = app.config.get<Address | undefined>('mail.from')
    const from = this.#from ?? (configured ? toAddresses(configured)[0]! : { address: 'hello@example.com', name: app.config.get<string>('app.name', 'Kiln') })
    this.#rendered = {
      from,
      to: [...this.#to],
      cc: [...this.#cc],
      bcc: [...this.#bcc],
      replyTo: [...this.#replyTo],
      subject,
      html,
      text,
      headers: { ...this.#headers },
    }
    return this.#rendered
  }

  /**
   * The HTML body (the text when there is none), to preview a mail in the browser.
   *
   * @example
   * ```ts
   * Route.get('/mail-preview', async () => new Welcome(user).render())
   * ```
   */
  async render(app: Application = currentApp()): Promise<string> {
    const message = await this.toMessage(app)
    return message.html ?? message.text
  }

  #apply(envelope: Envelope, content: Content): void {
    if (envelope.subject !== undefined) this.subject(envelope.subject)
    if (envelope.from !== undefined) this.from(envelope.from)
    if (envelope.to !== undefined) this.to(envelope.to)
    if (envelope.cc !== undefined) this.cc(envelope.cc)
    if (envelope.bcc !== undefined) this.bcc(envelope.bcc)
    if (envelope.replyTo !== undefined) this.replyTo(envelope.replyTo)
    for (const [name, value] of Object.entries(envelope.headers ?? {})) this.header(name, value)
    if (content.view !== undefined) this.view(content.view)
    if (content.text !== undefined) this.text(content.text)
    if (content.htmlString !== undefined) this.html(content.htmlString)
    if (content.with) this.with(content.with)
  }

  /** The public properties: what the views see. */
  #viewData(): Record<string, unknown> {
    return Object.fromEntries(Object.entries(this))
  }
}

function includes(list: Address[], address: AddressLike): boolean {
  const wanted = toAddresses(address)[0]!.address.toLowerCase()
  return list.some((a) => a.address.toLowerCase() === wanted)
}

/** `OrderShipped` → `Order shipped`. */
function words(name: string): string {
  const spaced = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase()
  return spaced.charAt(0).toUpperCase() + spaced.slice(1)
}
