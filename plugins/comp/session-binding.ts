import { createHmac, timingSafeEqual } from 'node:crypto'
import type { HttpContext } from '../../core/index.ts'

/**
 * Ties what a page holds (component snapshots, the update address, upload
 * addresses) to the session it was issued in. The tag is an HMAC of the
 * session id, so it reveals nothing about the id; login and logout give the
 * session a new id, so they end every tag issued before them.
 *
 * @example
 * ```ts
 * const binding = new SessionBinding(hmacKey(appKey, 'comp:session'))
 * binding.tag(ctx)              // 'q0Zk...' (22 characters)
 * binding.matches(ctx, tag)     // true in the same session only
 * ```
 */
export class SessionBinding {
  constructor(private readonly key: Buffer) {}

  /** The tag of the request's session; `'-'` when the request has none (such a tag never matches a session). */
  tag(ctx: Pick<HttpContext, 'session'> | undefined): string {
    const id = ctx?.session?.id
    if (!id) return '-'
    return createHmac('sha256', this.key).update(id).digest('base64url').slice(0, 22)
  }

  /** True when `tag` was issued in this request's session (compared in constant time). */
  matches(ctx: Pick<HttpContext, 'session'> | undefined, tag: unknown): boolean {
    const mine = this.tag(ctx)
    if (mine === '-' || typeof tag !== 'string' || tag.length !== mine.length) return false
    return timingSafeEqual(Buffer.from(mine), Buffer.from(tag))
  }
}
