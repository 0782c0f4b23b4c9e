import { HttpException, Limit, type HandlerFunction, type HttpContext } from '../../core/index.ts'
import type { CompServices } from './lifecycle/component-hook.ts'
import { updateComponent } from './lifecycle/update.ts'
import { nestedDeeperThan } from './nesting.ts'
import type { ServerMemo } from './snapshot.ts'
import { updatePayloadSchema } from './update-payload.ts'

/** The code of a 419 that the browser answers with a reload: the page's snapshots or address are out of date. */
export const EXPIRED_CODE = 'E_COMP_EXPIRED'

/**
 * `POST /comp/update`. It runs behind `signed:relative` (403 for a bare,
 * bad or expired address) and the `web` group (session, 419 without the
 * CSRF token). Then: the body's shape and limits (422), the nesting of the
 * snapshot (too deep counts as tampering, before anything recurses into it)
 * and of the updates and parameters (422), the snapshot's checksum (403
 * when tampered; an address that keeps failing gets 429), the session the
 * snapshot and the address were issued in and the snapshot's lifetime (419
 * with code `E_COMP_EXPIRED`, which the browser answers with a reload), and
 * the update itself.
 *
 * @example
 * ```ts
 * Route.post('/comp/update', updateHandler(services)).middleware(['signed:relative', 'web'])
 * ```
 */
export function updateHandler(services: CompServices): HandlerFunction {
  const { limits } = services.config
  const schema = updatePayloadSchema(limits)
  return async (ctx) => {
    const payload = schema.parse(ctx.request.body())
    if (nestedDeeperThan(payload.serverMemo, limits.max_state_depth + 2) || !services.checksums.verify(payload.fingerprint, payload.serverMemo)) {
      await tamperingRefused(services, ctx)
    }
    if (nestedDeeperThan(payload.updates, limits.max_state_depth + 2) || nestedDeeperThan(payload.calls, limits.max_state_depth + 3)) {
      throw new HttpException(422, `An update's value or a call's parameters nest deeper than ${limits.max_state_depth} levels.`)
    }
    refuseOutOfDate(services, ctx, payload.serverMemo as unknown as ServerMemo)
    return updateComponent(services, payload, ctx)
  }
}

/** A snapshot changed outside the server: 403, and 429 for an address that keeps sending them. */
async function tamperingRefused(services: CompServices, ctx: HttpContext): Promise<never> {
  const limit = Limit.perMinute(services.config.limits.checksum_failures_per_minute).by(ctx.request.ip() ?? 'unknown')
  const { allowed, retryAfter } = await ctx.app.service('limiters').attempt('comp-checksum', limit)
  if (!allowed) throw new HttpException(429, 'Too many tampered component snapshots from this address.', { headers: { 'retry-after': String(retryAfter) } })
  throw new HttpException(403, 'The component snapshot does not match its checksum: it was changed outside the server.')
}

/**
 * A genuine snapshot, but not for this request: issued in another session
 * (another visitor's, or this browser's before a login or logout), or past
 * its lifetime; or an update address issued in another session.
 */
function refuseOutOfDate(services: CompServices, ctx: HttpContext, memo: ServerMemo): void {
  const expired = (message: string) => new HttpException(419, message, { body: { code: EXPIRED_CODE } })
  if (memo.session === '-') throw expired('This component was rendered outside a session (on a route outside the `web` group), so it cannot be updated.')
  if (!services.binding.matches(ctx, memo.session))
    throw expired('This page is out of date: it was loaded in another session (before a login or logout). Reload the page.')
  if (!(typeof memo.expires === 'number' && memo.expires > Date.now())) throw expired('This page is out of date: its components have expired. Reload the page.')
  if (!services.binding.matches(ctx, ctx.request.query().s)) throw expired('This update address belongs to another session. Reload the page.')
}
