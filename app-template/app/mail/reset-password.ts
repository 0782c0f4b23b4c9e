import { Mailable } from 'kiln-framework/mail'

/**
 * The mail with a password reset link (sent from /forgot-password by
 * `sendPasswordResetLink` in app/auth/password-reset.ts).
 */
export class ResetPassword extends Mailable {
  constructor(
    public name: string,
    public link: string,
    public minutes: number,
  ) {
    super()
  }

  build() {
    return this.subject('Reset your password').view('emails/reset-password')
  }
}
