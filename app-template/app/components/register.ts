import { Limit, RateLimiter } from 'kiln-framework'
import { Component, html, validate } from 'kiln-framework/comp'
import { z } from 'zod'
import { MAIL_FAILED, sendEmailVerification } from '../auth/email-verification.ts'
import { personName } from '../auth/names.ts'
import { User } from '../models/user.ts'

/** Registrations from one address: as many a minute as login attempts for one email (app/limiters.ts). */
const ATTEMPTS_PER_MINUTE = 5

/**
 * `/register`: name, email, password and its confirmation. Each field is
 * checked as it is left; the email must not belong to an account yet; the
 * new user is logged in, mailed a verification link, and sent to the
 * "verify your email" notice. Passwords never stay in the page: they are
 * cleared after every attempt.
 */
export default class Register extends Component {
  static title = 'Register'

  @validate(personName)
  name = ''
  @validate(
    z.string().trim().toLowerCase().pipe(z.email('The email must be a valid email address.').max(255, 'The email may not be longer than 255 characters.')),
  )
  email = ''
  @validate(z.string().min(8, 'The password must be at least 8 characters.').max(1000, 'The password may not be longer than 1000 characters.'), {
    onUpdate: false,
  })
  password = ''
  @validate(z.string(), { onUpdate: false })
  password_confirmation = ''

  async register() {
    try {
      const limit = Limit.perMinute(ATTEMPTS_PER_MINUTE).by(this.ctx.request.ip() ?? 'unknown')
      const attempt = await RateLimiter.attempt('register', limit)
      if (!attempt.allowed) return this.addError('email', `Too many attempts. Try again in ${attempt.retryAfter} seconds.`)

      const { name, email, password } = this.validate()
      if (password !== this.password_confirmation) return this.addError('password', 'The password confirmation does not match.')
      if (await User.emailTaken(email)) return this.addError('email', 'The email has already been taken.')

      const user = new User()
      user.fill({ name, email })
      await user.setPassword(password)
      try {
        await user.save()
      } catch (error) {
        // Two registrations of one email at once: the unique index stopped the second.
        if (await User.emailTaken(email)) return this.addError('email', 'The email has already been taken.')
        throw error
      }
      await this.ctx.auth.login(user)
      await this.#sendVerification(user)
      this.redirect('/verify-email')
    } finally {
      this.reset('password', 'password_confirmation')
    }
  }

  static template = html`
    <section class="card auth">
      <h1>Create an account</h1>
      <form wire:submit="register" class="stack" novalidate>
        <label for="name">Name</label>
        <input id="name" wire:model.blur="name" autocomplete="name" data-test="name" {{#error "name"}}aria-invalid="true"{{/error}}>
        {{#error "name"}}<p class="error" data-test="name-error">{{message}}</p>{{/error}}
        <label for="email">Email</label>
        <input id="email" type="email" wire:model.blur="email" autocomplete="username" data-test="email" {{#error "email"}}aria-invalid="true"{{/error}}>
        {{#error "email"}}<p class="error" data-test="email-error">{{message}}</p>{{/error}}
        <label for="password">Password</label>
        <input id="password" type="password" wire:model="password" autocomplete="new-password" data-test="password" {{#error "password"}}aria-invalid="true"{{/error}}>
        {{#error "password"}}<p class="error" data-test="password-error">{{message}}</p>{{/error}}
        <label for="password_confirmation">Confirm password</label>
        <input id="password_confirmation" type="password" wire:model="password_confirmation" autocomplete="new-password" data-test="password-confirmation">
        <button type="submit" data-test="register">Register</button>
      </form>
      <p class="muted">Already registered? <a href="{{url "/login"}}">Log in</a></p>
    </section>
  `

  /**
   * The account exists and is logged in either way: a mail that fails (the mail server down) is logged, the notice
   * page says so (flashed), and its "Resend" tries again. Never a 500.
   */
  async #sendVerification(user: User): Promise<void> {
    try {
      await sendEmailVerification(user)
    } catch (error) {
      this.ctx.app.service('logger').error({ err: error, userId: user.id }, 'The verification mail could not be sent')
      this.ctx.session?.flash(MAIL_FAILED, true)
    }
  }
}
