import { HttpException, redirect, type HttpContext } from 'kiln-framework'
import { emailHashMatches, hasVerifiedEmail, markEmailAsVerified } from '../auth/email-verification.ts'
import { User } from '../models/user.ts'

/**
 * `GET /verify-email/{id}/{hash}`, the link of the verification mail. The
 * `signed:relative` middleware has refused a link that was changed or has
 * expired; here the hash must still be the user's email's. It works from
 * any browser (the link proves the mailbox), then says so: /verify-email
 * when logged in, else the login page (flashed as `status`).
 */
export class EmailVerificationController {
  async verify({ params, app, request, session }: HttpContext) {
    const id = Number(params.id)
    const user = Number.isSafeInteger(id) && id > 0 ? await User.find(id) : undefined
    if (!user || !emailHashMatches(user.email, String(params.hash))) throw new HttpException(403, 'This verification link is not valid.')
    if (!hasVerifiedEmail(user)) await markEmailAsVerified(user)
    if (request.user()) return redirect(app.urls.route('verification.notice'))
    // A guest goes straight to the login page, told why: /verify-email would send them there, and a flash lives for one request.
    session?.flash('status', 'Your email address has been verified. Log in to continue.')
    return redirect(app.urls.route('login'))
  }
}
