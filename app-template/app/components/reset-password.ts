import { Component, html, locked, validate } from 'kiln-framework/comp'
import { z } from 'zod'
import { resetPassword } from '../auth/password-reset.ts'

/**
 * `/reset-password/{token}?email=…`, the link of the reset mail: choose a
 * new password. A link that was changed or has expired is refused before
 * the form shows; the token itself is checked (and used up) on submit.
 * Once reset, the user is logged in and sent home, where the page says
 * "Your password has been reset." (flashed as `status`).
 */
export default class ResetPassword extends Component {
  static title = 'Reset your password'

  /** From the link: the browser may not change them. */
  @locked() token = ''
  @locked() email = ''
  /** False when the link's signature is wrong or expired. */
  @locked() linkValid = true

  @validate(z.string().min(8, 'The password must be at least 8 characters.').max(1000, 'The password may not be longer than 1000 characters.'), {
    onUpdate: false,
  })
  password = ''
  @validate(z.string(), { onUpdate: false })
  password_confirmation = ''

  mount() {
    const { request, app } = this.ctx
    this.email = String(request.query().email ?? '').slice(0, 255)
    this.linkValid = app.service('signer').hasValidSignature(this.ctx, { relative: true })
  }

  async save() {
    try {
      if (!this.linkValid) return this.addError('password', 'This password reset link is not valid.')
      const { password } = this.validate()
      if (password !== this.password_confirmation) return this.addError('password', 'The password confirmation does not match.')
      const { result, user } = await resetPassword(this.email, this.token, password)
      if (result !== 'reset' || !user) return this.addError('password', 'This password reset link is not valid any more. Ask for a new one.')
      // Browsers that were remembered with the old password must log in again.
      await this.ctx.auth.forgetRememberedDevices(user, { keepThisDevice: false })
      await this.ctx.auth.login(user)
      this.ctx.session?.flash('status', 'Your password has been reset.')
      this.redirect('/')
    } finally {
      // Passwords never stay in the page.
      this.reset('password', 'password_confirmation')
    }
  }

  static template = html`
    <section class="card auth">
      <h1>Reset your password</h1>
      {{#if linkValid}}
        <form wire:submit="save" class="stack" novalidate>
          <label for="email">Email</label>
          <input id="email" type="email" value="{{email}}" readonly autocomplete="username" data-test="email">
          <label for="password">New password</label>
          <input id="password" type="password" wire:model="password" autocomplete="new-password" data-test="password" {{#error "password"}}aria-invalid="true"{{/error}}>
          {{#error "password"}}<p class="error" data-test="password-error">{{message}}</p>{{/error}}
          <label for="password_confirmation">Confirm new password</label>
          <input id="password_confirmation" type="password" wire:model="password_confirmation" autocomplete="new-password" data-test="password-confirmation">
          <button type="submit" data-test="save">Reset password</button>
        </form>
      {{else}}
        <p class="error" data-test="invalid-link">This password reset link is not valid: it was changed, or it has expired.</p>
      {{/if}}
      <p class="muted"><a href="{{url "/forgot-password"}}">Ask for a new link</a></p>
    </section>
  `
}
