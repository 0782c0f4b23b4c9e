import { HttpException, Storage, view } from 'kiln-framework'
import { Component, upload, uploadRule, type TemporaryUploadedFile } from 'kiln-framework/comp'
import { z } from 'zod'
import { PersonalAccessToken } from 'kiln-framework/tok'
import { sendEmailVerification } from '../auth/email-verification.ts'
import { personName } from '../auth/names.ts'
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
 * address must be verified again: the link is mailed to it), a new
 * password (the current one required), an avatar (previewed through the
 * upload's `temporaryUrl()`, shown only to this session, before it is
 * saved; `/profile/avatar` serves it), and deleting the account (the
 * password required). Passwords never stay in the page: the actions that
 * read them clear them.
 */
export default class Profile extends Component {
  static title = 'Profile'
  static rules = z.object({ photo: uploadRule(AVATAR) })

  name = ''
  email = ''
  current_password = ''
  password = ''
  password_confirmation = ''
  delete_password = ''
  @upload(AVATAR) photo: TemporaryUploadedFile | null = null
  /** What the last action saved ('details', 'details-email', 'password', 'avatar'): the next action forgets it. */
  saved = ''

  mount() {
    this.fill({ name: this.#user().name, email: this.#user().email })
  }

  hydrate() {
    this.saved = ''
  }

  async updateDetails() {
    const { name, email } = this.validate(details)
    const user = this.#user()
    if (email !== user.email.toLowerCase() && (await User.emailTaken(email, user.id))) {
      return this.addError('email', 'The email has already been taken.')
    }
    const changed = email !== user.email.toLowerCase()
    user.name = name
    user.email = email
    // A new address is not verified until its owner opens the link mailed to it.
    if (changed) user.email_verified_at = null
    await user.save()
    if (changed) await this.#sendVerification(user)
    this.fill({ name, email })
    this.saved = changed ? 'details-email' : 'details'
  }

  async updatePassword() {
    try {
      const { current_password, password } = this.validate(newPassword)
      const user = this.#user()
      if (!(await user.verifyPassword(current_password))) return this.addError('current_password', 'The password is incorrect.')
      if (password !== this.password_confirmation) return this.addError('password', 'The password confirmation does not match.')
      await user.setPassword(password)
      await user.save()
      // Other browsers that were remembered must log in again; this one stays logged in.
      await this.ctx.auth.forgetRememberedDevices(user)
      this.saved = 'password'
    } finally {
      // Saved, refused or failed: typed passwords do not go back to the browser in the snapshot.
      this.reset('current_password', 'password', 'password_confirmation')
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
    const user = this.#user()
    const confirmed = await user.verifyPassword(this.delete_password)
    this.reset('delete_password')
    if (!confirmed) return this.addError('delete_password', 'The password is incorrect.')
    await this.ctx.auth.logout()
    await this.ctx.auth.forgetRememberedDevices(user, { keepThisDevice: false })
    // One by one, so each token also leaves the verified-token cache at once.
    for (const token of (await user.tokens().get()) as PersonalAccessToken[]) await token.delete()
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
