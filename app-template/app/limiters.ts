import { Limit, type LimitDefinition } from 'kiln-framework'

/** Tries at one account from one address a minute: enough for a few typos, far too few to guess a password. */
const PER_EMAIL_AND_ADDRESS = 5
/**
 * Tries from one address a minute, whatever the emails: password spraying
 * (one common password against many accounts) stops after 20, while a
 * household or an office behind one address, a few people each mistyping
 * once or twice, stays well under it.
 */
const PER_ADDRESS = 20
/** Password re-checks of one logged-in user a minute (`ctx.auth.checkPassword`): as many as /login allows one email. */
const PER_USER = 5

/**
 * Credential attempts (`POST /login`, `POST /tok/token`), used as
 * `throttle:credentials`, and password re-checks of a logged-in user
 * (`ctx.auth.checkPassword`, through `auth.password_limiter`):
 *
 * - a guest: 5 a minute for one email from one address, and 20 a minute
 *   from one address across all emails;
 * - a logged-in user: 5 a minute for that user (however many addresses and
 *   emails), and the same 20 a minute from one address, shared with the
 *   guests there, so logging in first does not lift the per-address limit.
 *
 * @example
 * ```ts
 * RateLimiter.for('credentials', credentials)
 * Route.post('/login', handler).middleware(['throttle:credentials'])
 * ```
 */
export const credentials: LimitDefinition = ({ request }) => {
  const address = Limit.perMinute(PER_ADDRESS).by(`ip:${request.ip() ?? 'unknown'}`)
  const user = request.user<{ getKey?(): unknown; id?: unknown }>()
  if (user) return [Limit.perMinute(PER_USER).by(`user:${String(user.getKey ? user.getKey() : user.id)}`), address]
  const email = String(request.input('email') ?? '')
    .trim()
    .toLowerCase()
    .slice(0, 255)
  // The narrow limit first: attempts it refuses are not counted against the whole address.
  return [Limit.perMinute(PER_EMAIL_AND_ADDRESS).by(`${email}|${request.ip() ?? 'unknown'}`), address]
}
