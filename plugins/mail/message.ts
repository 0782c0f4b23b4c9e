import { KilnError } from '../../core/index.ts'

/** One mailbox: an address and, when known, the name shown beside it. */
export interface Address {
  address: string
  name?: string
}

/**
 * What a mail address may be given as: a string, a mailbox, or anything with
 * an `email` (a user model), whose `name` is shown beside it.
 */
export type AddressLike = string | Address | { email: string; name?: string | null }

/** A mail ready for a transport: every view rendered, every address checked. */
export interface MailMessage {
  from: Address
  to: Address[]
  cc: Address[]
  bcc: Address[]
  replyTo: Address[]
  subject: string
  /** The HTML body, when the mailable has one. */
  html?: string
  /** The plain-text body: the mailable's text view, else made from the HTML. */
  text: string
  /** Extra headers (`X-Tag: welcome`). */
  headers: Record<string, string>
}

/** What a transport reports for a mail it handed over. */
export interface SentMessage {
  messageId: string
  /** The recipients the server took. */
  accepted: string[]
  /** The recipients it refused. */
  rejected: string[]
}

// One address, without the characters that would let it smuggle a second recipient or a header.
const MAILBOX = /^[^\s@<>()[\],;:"\\]+@[^\s@<>()[\],;:"\\]+$/
// C0, DEL, C1 and the Unicode line and paragraph separators: none belongs in a name shown in a header.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g

/**
 * Turns an {@link AddressLike} (or a list of them) into checked mailboxes.
 * An address that is not exactly one mailbox (a comma list, a line break) is
 * refused with `E_MAIL_ADDRESS`, so user input never adds recipients. A
 * name shown beside it is made safe instead of refused: each run of
 * control characters (a line break, a tab, NUL, U+2028...) becomes one
 * space, so a name saved long ago never stops its owner's mail, and can
 * never start a header.
 *
 * @example
 * ```ts
 * toAddresses(user) // [{ address: 'ada@example.com', name: 'Ada' }]
 * toAddresses(['a@example.com', { address: 'b@example.com', name: 'B' }])
 * ```
 */
export function toAddresses(value: AddressLike | readonly AddressLike[], name?: string): Address[] {
  const list = Array.isArray(value) ? (value as readonly AddressLike[]) : [value as AddressLike]
  return list.map((item) => toAddress(item, list.length === 1 ? name : undefined))
}

function toAddress(item: AddressLike, name?: string): Address {
  const raw = typeof item === 'string' ? { address: item, name } : 'email' in item ? { address: item.email, name: item.name ?? undefined } : item
  const address = String(raw.address ?? '').trim()
  if (!MAILBOX.test(address)) throw new KilnError(`"${address}" is not one mail address.`, { code: 'E_MAIL_ADDRESS' })
  const label = raw.name == null ? '' : safeName(String(raw.name))
  return label === '' ? { address } : { address, name: label }
}

/**
 * A display name without control characters: each run of them is one space, and the ends are trimmed.
 *
 * @example
 * ```ts
 * safeName('Ada\nBcc: eve@example.com') // 'Ada Bcc: eve@example.com'
 * ```
 */
export function safeName(name: string): string {
  return name.replace(CONTROL, ' ').trim()
}

/**
 * A mailbox as a header shows it: `Ada <ada@example.com>`.
 *
 * @example
 * ```ts
 * formatAddress({ address: 'ada@example.com', name: 'Ada' }) // 'Ada <ada@example.com>'
 * ```
 */
export function formatAddress(address: Address): string {
  const name = address.name ? safeName(address.name) : ''
  return name ? `${name} <${address.address}>` : address.address
}
