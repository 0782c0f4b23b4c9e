import { Limit, RateLimiter } from 'kiln-framework'
import { Component, html, validate } from 'kiln-framework/comp'
import { z } from 'zod'
import { sendPasswordResetLink } from '../auth/password-reset.ts'

/** Reset requests from one address a minute. */
const REQUESTS_PER_MINUTE = 5

/**
 * `/forgot-password`: asks for an email and mails a reset link to the
 * account that has it. The page says the same thing whether or not such an
 * account exists, so it cannot be used to find out who has one.
 */
export default class ForgotPassword extends Component {
  static title = 'Forgot your password?'

  @validate(
    z.string().trim().toLowerCase().pipe(z.email('The email must be a valid email address.').max(255, 'The email may not be longer than 255 characters.')),
  )
  email = ''
  /** True once a request went through. */
  sent = false

  async send() {
    const limit = Limit.perMinute(REQUESTS_PER_MINUTE).by(this.ctx.request.ip() ?? 'unknown')
    const attempt = await RateLimiter.attempt('password-reset', limit)
    if (!attempt.allowed) return this.addError('email', `Too many requests. Try again in ${attempt.retryAfter} seconds.`)
    const { email } = this.validate()
    this.email = email
    await sendPasswordResetLink(email)
    this.sent = true
  }

  static template = html`
    <section class="card auth">
      <h1>Forgot your password?</h1>
      <p class="muted">Give the email address of your account and we will mail you a link to choose a new password.</p>
      {{#if sent}}
        <p class="notice" data-test="sent">If an account exists for {{email}}, a password reset link is on its way. It works for an hour.</p>
      {{/if}}
      <form wire:submit="send" class="stack" novalidate>
        <label for="email">Email</label>
        <input id="email" type="email" wire:model="email" autocomplete="username" required data-test="email" {{#error "email"}}aria-invalid="true"{{/error}}>
        {{#error "email"}}<p class="error" data-test="email-error">{{message}}</p>{{/error}}
        <button type="submit" data-test="send">Email password reset link</button>
      </form>
      <p class="muted"><a href="{{url "/login"}}">Back to log in</a></p>
    </section>
  `
}
