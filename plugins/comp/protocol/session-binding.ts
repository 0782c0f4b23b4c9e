import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto'
import type { HttpContext } from '../../../core/index.ts'

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
  private readonly key: KeyObject
  /**
   * The last tag worked out for each session object: an update asks for it
   * four times (the snapshot's check, the address's check, uploads, the new
   * snapshot), and a login or logout mid-request changes the id, so the id is kept with it.
   */
  private readonly tags = Symbol('kiln.comp.sessionTag')

  constructor(key: Buffer) {
    this.key = createSecretKey(key)
  }

  /** The tag of the request's session; `'-'` when the request has none (such a tag never matches a session). */
  tag(ctx: Pick<HttpContext, 'session'> | undefined): string {
    const session = ctx?.session
    const id = session?.id
    if (!id) return '-'
    // On the session object itself: a WeakMap entry per request costs the garbage collector (issue 25).
    const known = (session as unknown as Record<symbol, { id: string; tag: string } | undefined>)[this.tags]
    if (known?.id === id) return known.tag
    const tag = createHmac('sha256', this.key).update(id).digest('base64url').slice(0, 22)
    ;(session as unknown as Record<symbol, { id: string; tag: string }>)[this.tags] = { id, tag }
    return tag
  }

  /** True when `tag` was issued in this request's session (compared in constant time). */
  matches(ctx: Pick<HttpContext, 'session'> | undefined, tag: unknown): boolean {
    const mine = this.tag(ctx)
    if (mine === '-' || typeof tag !== 'string' || tag.length !== mine.length) return false
    return timingSafeEqual(Buffer.from(mine), Buffer.from(tag))
  }
}
