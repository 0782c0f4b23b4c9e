import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { currentApp, defer } from 'kiln-framework'
import { Mail } from 'kiln-framework/mail'
import { ResetPassword } from '../mail/reset-password.ts'
import { User } from '../models/user.ts'
import { markEmailAsVerified, hasVerifiedEmail } from './email-verification.ts'
import { mailLink } from './mail-links.ts'

/** How long a reset link works. */
export const RESET_MINUTES = 60
/** A new link for the same email is not sent sooner than this after the last one. */
const RESEND_SECONDS = 60

/** What {@link resetPassword} reports. */
export type ResetResult = 'reset' | 'invalid-token'

/**
 * Mails a password reset link to the account with this email, if there is
 * one: a random token (only its SHA-256 hash is stored, replacing any
 * earlier one) in a link signed with APP_KEY that expires with it. The
 * answer is the same whether or not the account exists, and a second
 * request within a minute sends nothing, so the form neither tells who has
 * an account nor floods a mailbox. The mail itself goes after the
 * response (`defer`), so an existing account is not answered later than
 * an unknown email.
 *
 * @example
 * ```ts
 * await sendPasswordResetLink('ada@example.com')
 * ```
 */
export async function sendPasswordResetLink(email: string): Promise<void> {
  const user = await userByEmail(email)
  if (!user) return
  const db = await currentApp().service('db').kysely()
  const previous = await db.selectFrom('password_reset_tokens').select('created_at').where('email', '=', user.email).executeTakeFirst()
  if (previous && Date.now() - toDate(previous.created_at).getTime() < RESEND_SECONDS * 1000) return

  const token = randomBytes(32).toString('base64url')
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('password_reset_tokens').where('email', '=', user.email).execute()
    await trx
      .insertInto('password_reset_tokens')
      .values({ email: user.email, token: hash(token), created_at: dbDate(new Date(), await User.dialect()) })
      .execute()
  })
  const mail = new ResetPassword(user.name, resetUrl(user.email, token), RESET_MINUTES)
  // After the response: sending takes a mail server's round trips, which only an existing account would wait for,
  // and the time of the answer would tell who has one. A failure is logged; the page says the same either way.
  defer(async () => {
    try {
      await Mail.to(user).send(mail)
    } catch (error) {
      currentApp().logger.error({ err: error, userId: user.id }, 'The password reset mail could not be sent')
    }
  })
}

/**
 * Sets a new password when `token` is the one mailed for `email` and has
 * not expired. The token is used up (deleted) in the same statement that
 * checks it, so two requests racing with one token cannot both succeed.
 * A reset also verifies the email: the link proved the mailbox.
 *
 * @example
 * ```ts
 * const result = await resetPassword('ada@example.com', token, 'a new password')
 * ```
 */
export async function resetPassword(email: string, token: string, password: string): Promise<{ result: ResetResult; user?: User }> {
  const user = await userByEmail(email)
  const db = await currentApp().service('db').kysely()
  // Read for every request, with or without an account: the answer takes as long either way.
  const row = await db
    .selectFrom('password_reset_tokens')
    .select(['token', 'created_at'])
    .where('email', '=', user?.email ?? email)
    .executeTakeFirst()
  const given = Buffer.from(hash(String(token)))
  const stored = Buffer.from(row?.token ?? hash(''))
  const matches = given.length === stored.length && timingSafeEqual(given, stored)
  if (!user || !row || !matches) return { result: 'invalid-token' }
  if (Date.now() - toDate(row.created_at).getTime() > RESET_MINUTES * 60_000) {
    await db.deleteFrom('password_reset_tokens').where('email', '=', user.email).execute()
    return { result: 'invalid-token' }
  }
  const used = await db.deleteFrom('password_reset_tokens').where('email', '=', user.email).where('token', '=', row.token).executeTakeFirst()
  if (Number(used.numDeletedRows) !== 1) return { result: 'invalid-token' }
  await user.setPassword(password)
  await user.save()
  if (!hasVerifiedEmail(user)) await markEmailAsVerified(user)
  return { result: 'reset', user }
}

/**
 * The link of the reset mail: `/reset-password/{token}?email=…`, signed
 * and expiring with the token.
 *
 * @example
 * ```ts
 * resetUrl('ada@example.com', token) // 'http://127.0.0.1:3000/reset-password/…?email=…&expires=…&signature=…'
 * ```
 */
export function resetUrl(email: string, token: string): string {
  const app = currentApp()
  const path = app.router.path('password.reset', { token })
  return mailLink(app, app.service('signer').sign(path, { ttlMinutes: RESET_MINUTES, params: { email } }))
}

/** The user with this email, in any letter case. */
async function userByEmail(email: string): Promise<User | undefined> {
  const normalized = String(email).trim().toLowerCase()
  if (normalized === '' || normalized.length > 255) return undefined
  const db = await currentApp().service('db').kysely()
  const row = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn<string>('lower', ['email']), '=', normalized))
    .executeTakeFirst()
  return row ? User.find(row.id) : undefined
}

function hash(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/** A timestamp as each database takes it (SQLite has no date type: ISO text, which sorts and parses). */
function dbDate(date: Date, dialect: 'sqlite' | 'pgsql'): Date | string {
  return dialect === 'sqlite' ? date.toISOString() : date
}

function toDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value))
}
