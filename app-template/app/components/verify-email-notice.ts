import { HttpException, Limit, RateLimiter } from 'kiln-framework'
import { Component, html } from 'kiln-framework/comp'
import { COULD_NOT_SEND, hasVerifiedEmail, MAIL_FAILED, sendEmailVerification } from '../auth/email-verification.ts'
import type { User } from '../models/user.ts'

/** Verification mails one user may ask for a minute. */
const RESENDS_PER_MINUTE = 3

/**
 * `/verify-email`: where the `verified` middleware sends a user whose email
 * is not verified yet. It says where the link went and sends it again on
 * request; once the link was opened, it says so.
 */
export default class VerifyEmailNotice extends Component {
  static title = 'Verify your email'

  /** True right after a mail was sent again. */
  sent = false
  /** Set when sending again was refused (too many) or failed (the mail server). */
  notice = ''

  mount() {
    // Registration could not send the first mail: say so at once, "Resend" tries again.
    if (this.ctx.session?.get(MAIL_FAILED)) this.notice = COULD_NOT_SEND
  }

  async resend() {
    const user = this.#user()
    if (hasVerifiedEmail(user)) return this.redirect('/')
    const attempt = await RateLimiter.attempt('verification-mail', Limit.perMinute(RESENDS_PER_MINUTE).by(`user:${user.id}`))
    if (!attempt.allowed) {
      this.sent = false
      this.notice = `Too many requests. Try again in ${attempt.retryAfter} seconds.`
      return
    }
    try {
      await sendEmailVerification(user)
    } catch (error) {
      // The mail server is down or refused: said on the page and logged, never a 500.
      this.ctx.app.service('logger').error({ err: error, userId: user.id }, 'The verification mail could not be sent')
      this.sent = false
      this.notice = COULD_NOT_SEND
      return
    }
    this.sent = true
    this.notice = ''
  }

  with() {
    const user = this.#user()
    return { email: user.email, verified: hasVerifiedEmail(user) }
  }

  static template = html`
    <section class="card auth">
      <h1>Verify your email</h1>
      {{#if verified}}
        <p data-test="verified">Your email address, {{email}}, is verified. Thank you!</p>
        <p><a href="{{url "/"}}">Continue</a></p>
      {{else}}
        <p>Thanks for signing up! Before you go on, please open the link we just mailed to <strong>{{email}}</strong>.</p>
        <p class="muted">No mail? Check your spam folder, or have it sent again.</p>
        {{#if sent}}<p class="notice" data-test="sent">A new verification link has been sent to your email address.</p>{{/if}}
        {{#if notice}}<p class="error" data-test="notice">{{notice}}</p>{{/if}}
        <button type="button" wire:click="resend" data-test="resend">Resend verification email</button>
      {{/if}}
    </section>
  `

  /** Private for real (`#`): TypeScript's `private` is erased, and the browser could call it. */
  #user(): User {
    const user = this.ctx.request.user<User>()
    if (!user) throw new HttpException(401, 'Unauthenticated.')
    return user
  }
}
