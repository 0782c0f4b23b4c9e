import { AssertionError } from 'node:assert'
import type { Mailable } from './mailable.ts'

/** A mailable class, for the fake's assertions. */
export type MailableClass<M extends Mailable = Mailable> = abstract new (...args: any[]) => M

/** A predicate, or how many times. */
type Check<M> = ((mail: M) => boolean) | number

/**
 * What `Mail.fake()` returns: the mailables sent and queued while faked,
 * each rendered (`mail.rendered` holds its subject, addresses, `html` and
 * `text`), and assertions on them. Nothing reaches a transport or a queue.
 *
 * @example
 * ```ts
 * const fake = Mail.fake()
 * // ... the code under test sends
 * fake.assertSent(ResetPassword, (mail) => mail.hasTo('ada@example.com'))
 * fake.assertNotSent(VerifyEmail)
 * ```
 */
export class MailFake {
  readonly sentMails: Mailable[] = []
  readonly queuedMails: Mailable[] = []

  /** The sent mailables of a class (matching `predicate`). @example `fake.sent(ResetPassword)[0]!.rendered!.text` */
  sent<M extends Mailable>(Class: MailableClass<M>, predicate?: (mail: M) => boolean): M[] {
    return pick(this.sentMails, Class, predicate)
  }

  /** The queued mailables of a class. @example `fake.queued(Welcome)` */
  queued<M extends Mailable>(Class: MailableClass<M>, predicate?: (mail: M) => boolean): M[] {
    return pick(this.queuedMails, Class, predicate)
  }

  /** A mailable of the class was sent (matching the predicate, or this many times). @example `fake.assertSent(Welcome, 2)` */
  assertSent<M extends Mailable>(Class: MailableClass<M>, check?: Check<M>): void {
    expect(this.sentMails, Class, check, 'sent')
  }

  /** @example `fake.assertNotSent(Welcome, (mail) => mail.hasTo('x@example.com'))` */
  assertNotSent<M extends Mailable>(Class: MailableClass<M>, predicate?: (mail: M) => boolean): void {
    if (this.sent(Class, predicate).length > 0)
      throw new AssertionError({ message: `Did not expect ${Class.name} to be sent${predicate ? ' matching the predicate' : ''}.` })
  }

  /** @example `fake.assertNothingSent()` */
  assertNothingSent(): void {
    if (this.sentMails.length > 0) throw new AssertionError({ message: `Expected no mail to be sent, got ${names(this.sentMails)}.` })
  }

  /** @example `fake.assertSentCount(1)` */
  assertSentCount(count: number): void {
    if (this.sentMails.length !== count)
      throw new AssertionError({ message: `Expected ${count} mails sent, got ${this.sentMails.length}.`, actual: this.sentMails.length, expected: count })
  }

  /** @example `fake.assertQueued(Welcome, (mail) => mail.hasTo(user))` */
  assertQueued<M extends Mailable>(Class: MailableClass<M>, check?: Check<M>): void {
    expect(this.queuedMails, Class, check, 'queued')
  }

  /** @example `fake.assertNotQueued(Welcome)` */
  assertNotQueued<M extends Mailable>(Class: MailableClass<M>, predicate?: (mail: M) => boolean): void {
    if (this.queued(Class, predicate).length > 0) throw new AssertionError({ message: `Did not expect ${Class.name} to be queued.` })
  }

  /** @example `fake.assertNothingQueued()` */
  assertNothingQueued(): void {
    if (this.queuedMails.length > 0) throw new AssertionError({ message: `Expected no mail to be queued, got ${names(this.queuedMails)}.` })
  }

  /** Sent and queued alike: nothing at all. @example `fake.assertNothingOutgoing()` */
  assertNothingOutgoing(): void {
    this.assertNothingSent()
    this.assertNothingQueued()
  }
}

function pick<M extends Mailable>(list: Mailable[], Class: MailableClass<M>, predicate?: (mail: M) => boolean): M[] {
  return list.filter((mail): mail is M => mail instanceof Class && (!predicate || predicate(mail)))
}

function expect<M extends Mailable>(list: Mailable[], Class: MailableClass<M>, check: Check<M> | undefined, verb: string): void {
  if (typeof check === 'number') {
    const count = pick(list, Class).length
    if (count !== check)
      throw new AssertionError({ message: `Expected ${Class.name} to be ${verb} ${check} times, got ${count}.`, actual: count, expected: check })
    return
  }
  if (pick(list, Class, check).length === 0) {
    const others = names(list)
    throw new AssertionError({ message: `Expected ${Class.name} to be ${verb}${check ? ' matching the predicate' : ''}; ${verb}: ${others}.` })
  }
}

function names(list: Mailable[]): string {
  return list.map((mail) => mail.constructor.name).join(', ') || 'nothing'
}
