import { HttpException, Limit, type HttpContext } from '../../../core/index.ts'
import type { CompServices } from '../lifecycle/component-hook.ts'
import { nestedDeeperThan } from './nesting.ts'
import type { ServerMemo } from './snapshot.ts'

/** The code of a 419 that the browser answers with a reload: the page's snapshots or address are out of date. */
export const EXPIRED_CODE = 'E_COMP_EXPIRED'

/** What the checks read of one component's part of an update (a listener's has no updates or calls). */
export interface CheckedEntry {
  fingerprint: { id: string; name: string }
  serverMemo: Record<string, unknown>
  updates?: unknown[]
  calls?: unknown[]
}

/**
 * The checks of one component's part of an update, after its shape: the
 * nesting of the snapshot (too deep counts as tampering, before anything
 * recurses into it) and of the updates and parameters (422), the
 * snapshot's checksum (403 when tampered; an address that keeps failing
 * gets 429), then the session the snapshot and the address were issued in
 * and the snapshot's lifetime (419 with code `E_COMP_EXPIRED`).
 *
 * @example
 * ```ts
 * const refused = checkEntry(services, ctx, parseUpdatePayload(limits, body))
 * if (refused) await refused
 * ```
 */
export function checkEntry(services: CompServices, ctx: HttpContext, entry: CheckedEntry): Promise<never> | undefined {
  const { limits } = services.config
  // A promise only for a refusal (the rate limit of failures is asynchronous): a genuine snapshot is checked without one.
  if (nestedDeeperThan(entry.serverMemo, limits.max_state_depth + 2) || !services.checksums.verify(entry.fingerprint, entry.serverMemo)) {
    return tamperingRefused(services, ctx)
  }
  if (nestedDeeperThan(entry.updates ?? [], limits.max_state_depth + 2) || nestedDeeperThan(entry.calls ?? [], limits.max_state_depth + 3)) {
    throw new HttpException(422, `An update's value or a call's parameters nest deeper than ${limits.max_state_depth} levels.`)
  }
  refuseOutOfDate(services, ctx, entry.serverMemo as unknown as ServerMemo)
  return undefined
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
