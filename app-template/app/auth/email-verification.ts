import { createHash, timingSafeEqual } from 'node:crypto'
import { currentApp } from 'kiln-framework'
import { Mail } from 'kiln-framework/mail'
import { VerifyEmail } from '../mail/verify-email.ts'
import type { User } from '../models/user.ts'
import { mailLink } from './mail-links.ts'

/** How long a verification link works. */
export const VERIFICATION_MINUTES = 60

/** The session key (flashed) that tells /verify-email the mail of the registration could not be sent. */
export const MAIL_FAILED = 'verification_mail_failed'

/** What a page says when the mail server did not take a mail. */
export const COULD_NOT_SEND = 'We could not send the mail: try again in a moment.'

/**
 * True once the user opened the link of a verification mail.
 *
 * @example
 * ```ts
 * if (!hasVerifiedEmail(user)) return redirect('/verify-email')
 * ```
 */
export function hasVerifiedEmail(user: User): boolean {
  return Boolean(user.email_verified_at)
}

/**
 * Marks the user's email as verified, now.
 *
 * @example
 * ```ts
 * await markEmailAsVerified(user)
 * ```
 */
export async function markEmailAsVerified(user: User): Promise<void> {
  user.forceFill({ email_verified_at: new Date() })
  await user.save()
}

/**
 * The link of the verification mail: the user's id and a hash of their
 * email, signed with APP_KEY, valid for {@link VERIFICATION_MINUTES}. A link
 * sent before the email changed no longer matches it.
 *
 * @example
 * ```ts
 * verificationUrl(user) // 'http://127.0.0.1:3000/verify-email/1/5e88…?expires=…&signature=…'
 * ```
 */
export function verificationUrl(user: User): string {
  const app = currentApp()
  const signed = app.service('signer').signRoute('verification.verify', { id: user.id, hash: emailHash(user.email) }, { ttlMinutes: VERIFICATION_MINUTES })
  return mailLink(app, signed)
}

/**
 * Mails the user a verification link (registration calls it; so does
 * "Resend" on /verify-email).
 *
 * @example
 * ```ts
 * await sendEmailVerification(user)
 * ```
 */
export async function sendEmailVerification(user: User): Promise<void> {
  await Mail.to(user).send(new VerifyEmail(user.name, verificationUrl(user), VERIFICATION_MINUTES))
}

/**
 * True when `hash` (from a verification link) is the hash of this email.
 * Compared in constant time.
 *
 * @example
 * ```ts
 * if (!emailHashMatches(user.email, ctx.params.hash)) abort(403)
 * ```
 */
export function emailHashMatches(email: string, hash: string): boolean {
  const expected = Buffer.from(emailHash(email))
  const given = Buffer.from(String(hash))
  return given.length === expected.length && timingSafeEqual(given, expected)
}

function emailHash(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex')
}
