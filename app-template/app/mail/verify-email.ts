import { Mailable } from 'kiln-framework/mail'

/**
 * The mail with the link that verifies a new account's email (sent by
 * `sendEmailVerification(user)` in app/auth/email-verification.ts). Its
 * public properties are the view's data.
 */
export class VerifyEmail extends Mailable {
  constructor(
    public name: string,
    public link: string,
    public minutes: number,
  ) {
    super()
  }

  build() {
    return this.subject('Verify your email address').view('emails/verify-email')
  }
}
