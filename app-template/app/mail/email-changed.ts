import { Mailable } from 'kiln-framework/mail'

/**
 * The notice sent to the OLD address when the account's email changes on
 * /profile (app/components/profile.ts): if the owner did not make the
 * change, the link lets them reset the password before the new address
 * can be used to take the account over.
 */
export class EmailChanged extends Mailable {
  constructor(
    public name: string,
    public newEmail: string,
    public resetLink: string,
  ) {
    super()
  }

  build() {
    return this.subject('The email address of your account was changed').view('emails/email-changed')
  }
}
