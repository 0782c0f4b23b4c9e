import { redirect, ValidationException, type HttpContext } from 'kiln-framework'
import { z } from 'zod'

const credentials = z.object({
  email: z.email('The email must be a valid email address.'),
  password: z.string().min(1, 'The password field is required.'),
})

/**
 * Logs users in and out with the session guard ("remember me" keeps them
 * logged in for 400 days, see config/auth.ts). JSON clients get JSON (200,
 * or 422 with `errors.email`); a plain HTML form is redirected, with the
 * errors flashed to the session when the login fails.
 */
export class SessionController {
  async store(ctx: HttpContext) {
    const { request, auth, app } = ctx
    const parsed = credentials.safeParse({ email: request.input('email'), password: request.input('password') })
    // "Remember me": a checkbox in the form, `remember: true` in JSON.
    const remember = [true, 'true', 'on', '1'].includes(request.input('remember') as never)
    const user = parsed.success ? await auth.attempt(parsed.data, { remember }) : undefined
    if (user) return request.expectsJson() ? { user } : redirect(app.urls.to('/'))

    const errors: Record<string, string[]> = parsed.success
      ? { email: ['These credentials do not match our records.'] }
      : Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), [issue.message]]))
    if (request.expectsJson()) throw new ValidationException(errors)
    ctx.session?.flash('errors', errors)
    // Refills the form; passwords and oversized values are never kept.
    ctx.session?.flashInput(request.only(['email']))
    return redirect(app.urls.route('login'))
  }

  async destroy({ request, auth, app }: HttpContext) {
    await auth.logout()
    return request.expectsJson() ? { message: 'Logged out.' } : redirect(app.urls.to('/'))
  }
}
