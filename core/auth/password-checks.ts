import { HttpException } from '../http/errors/http-exception.ts'
import type { HttpContext } from '../http/pipeline/http-context.ts'
import { KilnError } from '../support/errors.ts'
import type { AuthUser } from './contracts.ts'

/** What a refused password check answers: a 429 whose message a form can show as the field's error. */
const PASSWORD_CHECKS_REFUSED = 'Too many password attempts.'

const CHECKED = Symbol('kiln.password-checked')

/**
 * Counts one password re-check of the logged-in user (`ctx.auth.checkPassword`)
 * against its two limits, or throws a 429 {@link HttpException} with
 * `Retry-After`:
 *
 * - one check per HTTP request: a component update may carry many calls,
 *   and a bundle many components, all in one request (and one `ctx`), so
 *   without it one request could try dozens of guesses;
 * - the limits of the limiter named by `auth.password_limiter` in
 *   config/auth.ts (the starter names `credentials`, the one `/login`
 *   uses), evaluated for this request, each counted per user
 *   (`user:<id>`) whatever key the limiter gives: guesses at one account
 *   are limited wherever they come from, and a client cannot dodge the
 *   count by changing the input a limiter keys by. The counters are the
 *   ones `throttle:<name>` counts, so a limiter that keys a logged-in
 *   user's requests by `user:<id>` shares one count with them. A right
 *   password clears the count (call the function it resolves to), as a
 *   login does: the limit is on wrong guesses in a row.
 *
 * @example
 * ```ts
 * const passed = await throttlePasswordCheck(ctx, user) // throws HttpException(429) when refused
 * if (await user.verifyPassword(password)) await passed()
 * ```
 */
export async function throttlePasswordCheck(ctx: HttpContext, user: AuthUser): Promise<() => Promise<void>> {
  const holder = ctx as unknown as Record<symbol, boolean | undefined>
  if (holder[CHECKED]) {
    throw new HttpException(429, `${PASSWORD_CHECKS_REFUSED} A request may check a password only once: try again.`, {
      headers: { 'retry-after': '1' },
    })
  }
  holder[CHECKED] = true
  const name = ctx.app.config.get<string | undefined>('auth.password_limiter')
  if (!name) return async () => {}
  const limiters = ctx.app.service('limiters')
  const definition = limiters.definition(name)
  if (!definition) {
    throw new KilnError(`auth.password_limiter names "${name}", but no rate limiter has that name: define it with RateLimiter.for('${name}', ...).`, {
      code: 'E_RATE_LIMITER_UNKNOWN',
    })
  }
  const limits = await definition(ctx)
  const list = limits === undefined ? [] : Array.isArray(limits) ? limits : [limits]
  // The names `throttle:<name>` counts under, so a check and a request with the same key share one count.
  const counted = list.map((limit, index) => ({ name: `${name}#${index}`, limit: limit.by(`user:${String(user.getKey())}`) }))
  for (const { name: counter, limit } of counted) {
    const result = await limiters.attempt(counter, limit)
    if (!result.allowed) {
      throw new HttpException(429, `${PASSWORD_CHECKS_REFUSED} Try again in ${result.retryAfter} seconds.`, {
        headers: { 'retry-after': String(result.retryAfter), 'x-ratelimit-limit': String(result.limit), 'x-ratelimit-remaining': '0' },
      })
    }
  }
  return async () => {
    for (const { name: counter, limit } of counted) await limiters.clear(counter, limit)
  }
}
