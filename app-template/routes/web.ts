import { defineRoutes, RateLimiter, view } from 'kiln-framework'
import { credentials } from '../app/limiters.ts'
import { LiveController } from '../app/controllers/live-controller.ts'
import { SessionController } from '../app/controllers/session-controller.ts'
import Counter from '../app/components/counter.ts'
import TodoList from '../app/components/todo-list.ts'
import TokenManager from '../app/components/token-manager.ts'
import Profile from '../app/components/profile.ts'
import Register from '../app/components/register.ts'
import { AvatarController } from '../app/controllers/avatar-controller.ts'
import ForgotPassword from '../app/components/forgot-password.ts'
import ResetPassword from '../app/components/reset-password.ts'
import VerifyEmailNotice from '../app/components/verify-email-notice.ts'
import RestoreEmail from '../app/components/restore-email.ts'
import { EmailVerificationController } from '../app/controllers/email-verification-controller.ts'
import { ensureEmailIsVerified } from '../app/middleware/ensure-email-is-verified.ts'

/** Browser routes: the `web` middleware group (encrypted cookies, session, CSRF). */
export default defineRoutes((Route, app) => {
  RateLimiter.for('credentials', credentials)
  app.middleware.alias('verified', ensureEmailIsVerified)

  // `status`: what the previous page flashed, said once ("Your password has been reset.", "Your email address has been verified.").
  Route.get('/', ({ session }) => view('home', { status: session?.get('status') })).name('home')
  Route.get('/login', ({ session }) => view('login', { title: 'Log in', status: session?.get('status') }))
    .middleware(['guest'])
    .name('login')
  Route.post('/login', [SessionController, 'store']).middleware(['throttle:credentials']).name('login.store')
  Route.post('/logout', [SessionController, 'destroy']).middleware(['auth']).name('logout')

  // Password reset by email and email verification (app/auth/): the links come by mail (config/mail.ts).
  Route.comp('/forgot-password', ForgotPassword).middleware(['guest']).name('password.request')
  Route.comp('/reset-password/{token}', ResetPassword).middleware(['guest']).name('password.reset')
  Route.comp('/verify-email', VerifyEmailNotice).middleware(['auth']).name('verification.notice')
  Route.get('/verify-email/{id}/{hash}', [EmailVerificationController, 'verify']).middleware(['signed:relative', 'throttle:6,1']).name('verification.verify')
  // "Undo this change", from the notice mailed to the old address when the email changes on /profile: no login (the
  // owner may have lost the password), the signed link is the proof; the page shows, a button undoes.
  Route.comp('/email/restore/{change}', RestoreEmail).middleware(['signed:relative', 'throttle:6,1']).name('email.restore')
  Route.comp('/register', Register).middleware(['guest']).name('register')

  // Components: full pages served by Route.comp (the layout is layouts/app).
  Route.comp('/counter', Counter).name('counter')
  Route.comp('/todos', TodoList).middleware(['auth', 'verified']).name('todos')
  Route.comp('/tokens', TokenManager).middleware(['auth', 'verified']).name('tokens')
  Route.comp('/profile', Profile).middleware(['auth']).name('profile')
  Route.get('/profile/avatar', [AvatarController, 'show']).middleware(['auth']).name('profile.avatar')

  // The live page: presence and messages over the realtime server (BROADCAST_CONNECTION=rt).
  Route.get('/live', [LiveController, 'show']).middleware(['auth']).name('live')
  Route.post('/live/messages', [LiveController, 'post']).middleware(['auth']).name('live.messages')
})
