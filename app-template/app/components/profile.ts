import { HttpException, Storage, view } from 'kiln-framework'
import { Component, upload, uploadRule, type TemporaryUploadedFile } from 'kiln-framework/comp'
import { Mail } from 'kiln-framework/mail'
import { z } from 'zod'
import { PersonalAccessToken } from 'kiln-framework/tok'
import { forgetEmailChanges, recordEmailChange, RESTORE_DAYS } from '../auth/email-restore.ts'
import { sendEmailVerification } from '../auth/email-verification.ts'
import { personName } from '../auth/names.ts'
import { EmailChanged } from '../mail/email-changed.ts'
import { User } from '../models/user.ts'

/** What an avatar may be: a raster image by its content (never SVG, which can carry script), up to 2 MB. */
const AVATAR = { maxKb: 2048, mimes: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] }

const details = z.object({
  name: personName,
  email: z.string().trim().toLowerCase().pipe(z.email('The email must be a valid email address.').max(255, 'The email may not be longer than 255 characters.')),
})
const newPassword = z.object({
  current_password: z.string().min(1, 'The current password field is required.'),
  password: z.string().min(8, 'The password must be at least 8 characters.').max(1000, 'The password may not be longer than 1000 characters.'),
})

/**
 * The signed-in user's profile, as Breeze gives it: name and email (a new
 * address needs the current password, must be verified again: the link is
 * mailed to it, and the old address is told, with a link that undoes the change), a new password (the current
 * one required; other browsers are logged out), "log out other browsers"
 * (the password required), an avatar (previewed through the upload's
 * `temporaryUrl()`, shown only to this session, before it is saved;
 * `/profile/avatar` serves it), and deleting the account (the password
 * required).
 *
 * Every password check goes through `ctx.auth.checkPassword`: one per
 * request, and counted against the `credentials` limiter per user
 * (config/auth.ts `password_limiter`); a refusal (429) shows as the
 * field's error. Passwords never stay in the page: every action that reads
 * one clears it, whatever happens.
 */
export default class Profile extends Component {
  static title = 'Profile'
  static rules = z.object({ photo: uploadRule(AVATAR) })

  name = ''
  email = ''
  current_password = ''
  password = ''
  password_confirmation = ''
  /** The current password, asked for when the email changes. */
  email_password = ''
  /** The password for "Log out other browsers". */
  browsers_password = ''
  delete_password = ''
  @upload(AVATAR) photo: TemporaryUploadedFile | null = null
  /** What the last action saved ('details', 'details-email', 'password', 'browsers', 'avatar'): the next action forgets it. */
  saved = ''

  mount() {
    this.fill({ name: this.#user().name, email: this.#user().email })
  }

  hydrate() {
    this.saved = ''
  }

  async updateDetails() {
    this.resetErrorBag('email_password')
    try {
      const { name, email } = this.validate(details)
      const user = this.#user()
      const previous = user.email
      const changed = email !== previous.toLowerCase()
      if (changed) {
        // With the session alone, a new address would let anyone holding it reset the password to theirs.
        if (!this.email_password) return this.addError('email_password', 'Your current password is required to change the email address.')
        if (!(await this.#passwordMatches('email_password', this.email_password))) return
        if (await User.emailTaken(email, user.id)) return this.addError('email', 'The email has already been taken.')
      }
      user.name = name
      user.email = email
      // A new address is not verified until its owner opens the link mailed to it.
      if (changed) user.email_verified_at = null
      await user.save()
      if (changed) {
        await this.#sendVerification(user)
        await this.#noticeOldAddress(user, previous)
      }
      this.fill({ name, email })
      this.saved = changed ? 'details-email' : 'details'
      // The nav (in the layout, outside this component) shows the new name: it listens for this event.
      this.dispatch('profile-updated', { name })
    } finally {
      this.reset('email_password')
    }
  }

  async updatePassword() {
    try {
      const { current_password, password } = this.validate(newPassword)
      const user = this.#user()
      if (!(await this.#passwordMatches('current_password', current_password))) return
      if (password !== this.password_confirmation) return this.addError('password', 'The password confirmation does not match.')
      await user.setPassword(password)
      await user.save()
      // This browser stays logged in (a new session id); every other session and remembered browser is logged out.
      await this.ctx.auth.passwordChanged(user)
      this.saved = 'password'
    } finally {
      // Saved, refused or failed: typed passwords do not go back to the browser in the snapshot.
      this.reset('current_password', 'password', 'password_confirmation')
    }
  }

  async logoutOtherBrowsers() {
    this.resetErrorBag('browsers_password')
    try {
      if (!this.browsers_password) return this.addError('browsers_password', 'The password field is required.')
      const done = await this.#refusalAsError('browsers_password', () => this.ctx.auth.logoutOtherDevices(this.browsers_password))
      if (done === false) return this.addError('browsers_password', 'The password is incorrect.')
      if (done) this.saved = 'browsers'
    } finally {
      this.reset('browsers_password')
    }
  }

  async save() {
    const { photo } = this.validate(Profile.rules)
    const user = this.#user()
    const previous = user.avatar
    user.avatar = await photo.store('avatars')
    await user.save()
    if (previous) await Storage.store().removeItem(previous.replaceAll('/', ':'))
    this.reset('photo')
    this.saved = 'avatar'
  }

  async deleteAccount() {
    this.resetErrorBag('delete_password')
    const user = this.#user()
    let confirmed: boolean
    try {
      confirmed = await this.#passwordMatches('delete_password', this.delete_password)
    } finally {
      this.reset('delete_password')
    }
    if (!confirmed) return
    await this.ctx.auth.logout()
    await this.ctx.auth.forgetRememberedDevices(user, { keepThisDevice: false })
    // One by one, so each token also leaves the verified-token cache at once.
    for (const token of (await user.tokens().get()) as PersonalAccessToken[]) await token.delete()
    await forgetEmailChanges(user)
    if (user.avatar) await Storage.store().removeItem(user.avatar.replaceAll('/', ':'))
    await user.delete()
    this.redirect('/')
  }

  /** The address changed either way: a mail that fails is logged, and "Resend" on /verify-email tries again. */
  async #sendVerification(user: User): Promise<void> {
    try {
      await sendEmailVerification(user)
    } catch (error) {
      this.ctx.app.service('logger').error({ err: error, userId: user.id }, 'The verification mail could not be sent')
    }
  }

  /**
   * The old address learns of the change, with a link that undoes it: if it was not its owner, they get the account
   * back from that mailbox alone. A mail that fails is logged.
   */
  async #noticeOldAddress(user: User, previous: string): Promise<void> {
    const undoLink = await recordEmailChange(user, previous)
    try {
      await Mail.to(previous, user.name).send(new EmailChanged(user.name, user.email, undoLink, RESTORE_DAYS))
    } catch (error) {
      this.ctx.app.service('logger').error({ err: error, userId: user.id }, 'The email-changed notice could not be sent')
    }
  }

  /** True for the user's password; otherwise the field gets the error ("incorrect", or the throttle's refusal). */
  async #passwordMatches(field: string, password: string): Promise<boolean> {
    const matches = await this.#refusalAsError(field, () => this.ctx.auth.checkPassword(password))
    if (matches === false) this.addError(field, 'The password is incorrect.')
    return matches === true
  }

  /**
   * Runs a password check; its refusal (429: too many attempts, or a second
   * check in one request) becomes the field's error, and the answer undefined.
   */
  async #refusalAsError<T>(field: string, check: () => Promise<T>): Promise<T | undefined> {
    try {
      return await check()
    } catch (error) {
      if (!(error instanceof HttpException) || error.status !== 429) throw error
      this.addError(field, error.message)
      return undefined
    }
  }

  render() {
    // After deleteAccount there is no user any more: the page is on its way home.
    const avatar = this.ctx.request.user<User>()?.avatar
    // The file name changes with each save, so the browser never shows a cached old picture.
    return view('components/profile', { version: avatar ? avatar.split('/').pop() : null })
  }

  /** Private for real (`#`): TypeScript's `private` is erased, and the browser could call it. */
  #user(): User {
    const user = this.ctx.request.user<User>()
    if (!user) throw new HttpException(401, 'Unauthenticated.')
    return user
  }
}
