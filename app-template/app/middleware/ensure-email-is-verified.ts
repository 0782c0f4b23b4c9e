import { HttpException, redirect, type Middleware } from 'kiln-framework'
import { hasVerifiedEmail } from '../auth/email-verification.ts'
import type { User } from '../models/user.ts'

/**
 * `verified`: only users who verified their email pass. A browser is sent
 * to the notice page (/verify-email), where the mail can be sent again;
 * a JSON client gets 403 `{"message":"Your email address is not verified."}`.
 * Put it after `auth`: `.middleware(['auth', 'verified'])`.
 */
export const ensureEmailIsVerified: Middleware = (ctx, next) => {
  const user = ctx.request.user<User>()
  if (user && hasVerifiedEmail(user)) return next()
  if (ctx.request.expectsJson()) throw new HttpException(403, 'Your email address is not verified.')
  return redirect(ctx.app.urls.route('verification.notice'))
}
