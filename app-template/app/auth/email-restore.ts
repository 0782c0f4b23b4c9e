import { randomBytes } from 'node:crypto'
import { currentApp, type RequestAuth } from 'kiln-framework'
import type { PersonalAccessToken } from 'kiln-framework/tok'
import { User } from '../models/user.ts'
import { mailLink } from './mail-links.ts'
import { sendPasswordResetLink } from './password-reset.ts'

/**
 * How long the "Undo this change" link of an email-changed notice works: a
 * week, so an owner who reads their mail only now and then still gets
 * there. For that long, the old address can take the account back.
 */
export const RESTORE_DAYS = 7

/** An email change, as the undo link finds it. */
export interface EmailChange {
  id: number
  userId: number
  oldEmail: string
  /** True once it was undone (from its own link, or from the link of an earlier change). */
  undone: boolean
}

/** What {@link restoreEmail} did. */
export type RestoreResult = 'restored' | 'already-undone' | 'taken' | 'not-found'

/**
 * Records an email change made on /profile and returns the link for the
 * notice to the old address: `/email/restore/{change}`, signed with
 * APP_KEY, valid for {@link RESTORE_DAYS} days, on APP_URL. The link names
 * the change (the user and the old address), not the current address, so
 * it still works after further changes.
 *
 * @example
 * ```ts
 * const undoLink = await recordEmailChange(user, 'old@example.com')
 * ```
 */
export async function recordEmailChange(user: User, oldEmail: string): Promise<string> {
  const app = currentApp()
  const db = await app.service('db').kysely()
  const now = Math.floor(Date.now() / 1000)
  // The links of older rows have expired: nothing can use them any more.
  await db
    .deleteFrom('email_changes')
    .where('user_id', '=', user.id)
    .where('changed_at', '<', now - RESTORE_DAYS * 86_400)
    .execute()
  const row = await db
    .insertInto('email_changes')
    .values({ user_id: user.id, old_email: oldEmail, new_email: user.email, changed_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  const signed = app.service('signer').signRoute('email.restore', { change: Number(row.id) }, { ttlMinutes: RESTORE_DAYS * 24 * 60 })
  return mailLink(app, signed)
}

/**
 * The change an undo link names, or undefined when there is none (its
 * account was deleted, or the id is not a number).
 *
 * @example
 * ```ts
 * const change = await findEmailChange(Number(ctx.params.change))
 * ```
 */
export async function findEmailChange(id: number): Promise<EmailChange | undefined> {
  if (!Number.isSafeInteger(id) || id <= 0) return undefined
  const db = await currentApp().service('db').kysely()
  const row = await db.selectFrom('email_changes').select(['id', 'user_id', 'old_email', 'undone_at']).where('id', '=', id).executeTakeFirst()
  if (!row) return undefined
  return { id: Number(row.id), userId: Number(row.user_id), oldEmail: String(row.old_email), undone: row.undone_at !== null && row.undone_at !== undefined }
}

/**
 * Undoes an email change, from the link the old address was mailed: the
 * account takes the old address back, verified (the link proved the
 * mailbox), and is treated as taken over:
 *
 * - its password is replaced by a random one nobody knows, which ends
 *   every session (they keep a fingerprint of the password) and every
 *   remembered browser;
 * - its personal access tokens are revoked;
 * - a password reset link goes to the restored address.
 *
 * This change and every later one of the account are marked undone, so
 * their links do nothing more: a second use of the link changes nothing,
 * and whoever made the later changes cannot take the address back with
 * the links mailed to them. An earlier change's link still works. When the
 * old address now belongs to another account, nothing changes (`'taken'`).
 *
 * @example
 * ```ts
 * const result = await restoreEmail(ctx.auth, change.id) // 'restored'
 * ```
 */
export async function restoreEmail(auth: RequestAuth, id: number): Promise<RestoreResult> {
  const change = await findEmailChange(id)
  const user = change && (await User.find(change.userId))
  if (!change || !user) return 'not-found'
  if (change.undone) return 'already-undone'
  if (await User.emailTaken(change.oldEmail, user.id)) return 'taken'

  const db = await currentApp().service('db').kysely()
  const now = Math.floor(Date.now() / 1000)
  // This row first, and only while it is not undone: of two requests racing with one link, one restores.
  const claimed = await db.updateTable('email_changes').set({ undone_at: now }).where('id', '=', change.id).where('undone_at', 'is', null).executeTakeFirst()
  if (Number(claimed.numUpdatedRows ?? 0) !== 1) return 'already-undone'
  await db
    .updateTable('email_changes')
    .set({ undone_at: now })
    .where('user_id', '=', user.id)
    .where('id', '>', change.id)
    .where('undone_at', 'is', null)
    .execute()

  user.email = change.oldEmail
  user.email_verified_at = new Date()
  // Random and never shown: no one knows it, so the owner chooses a new one through the mailed link.
  await user.setPassword(randomBytes(32).toString('base64url'))
  await user.save()
  await auth.forgetRememberedDevices(user, { keepThisDevice: false })
  // One by one, so each token also leaves the verified-token cache at once.
  for (const token of (await user.tokens().get()) as PersonalAccessToken[]) await token.delete()
  // Sent after the response; a link mailed to this address in the last minute is not sent again (it works).
  await sendPasswordResetLink(user.email)
  return 'restored'
}

/**
 * Forgets the email changes of a user (when the account is deleted).
 *
 * @example
 * ```ts
 * await forgetEmailChanges(user)
 * ```
 */
export async function forgetEmailChanges(user: User): Promise<void> {
  const db = await currentApp().service('db').kysely()
  await db.deleteFrom('email_changes').where('user_id', '=', user.id).execute()
}
