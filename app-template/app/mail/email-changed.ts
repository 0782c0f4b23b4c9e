import { Mailable } from 'kiln-framework/mail'

/**
 * The notice sent to the OLD address when the account's email changes on
 * /profile (app/components/profile.ts): if the owner did not make the
 * change, its "Undo this change" link (app/auth/email-restore.ts) gives
 * them the account back from this mailbox alone, for `days` days.
 */
export class EmailChanged extends Mailable {
  constructor(
    public name: string,
    public newEmail: string,
    public undoLink: string,
    public days: number,
  ) {
    super()
  }

  build() {
    return this.subject('The email address of your account was changed').view('emails/email-changed')
  }
}
