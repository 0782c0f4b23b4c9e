import { safeEqual, type Model } from '../../core/index.ts'

/**
 * A verified token as the cache keeps it: the token's and the user's
 * attributes as their models cast them, never models (each request gets its
 * own, made by `hydrateCopy`, so a route's changes never reach the cache).
 */
export interface VerifiedToken {
  /** The stored SHA-256 of the secret: a hit still needs the request's secret to hash to it. */
  hash: string
  token: Record<string, unknown>
  user: Record<string, unknown>
  /** The user's key, for invalidating every token of a user. */
  userKey: string
  /** When the entry stops counting (ms): the earliest of its TTL and the token's own expiry. */
  until: number
}

/** What one process tells the others (and itself): which entries are stale. */
export type Invalidation = { token: number } | { user: string } | { all: true }

/**
 * Verified tokens of recent requests, for `tok.cache`: bounded (the oldest
 * entry goes first when full) and short-lived. An entry counts only until
 * its `until`, only for the secret whose hash it holds (compared in constant
 * time), and only while the cache is `usable`: a cache that may have missed
 * an invalidation (its Redis subscription is down) is bypassed until it has
 * been emptied again.
 *
 * @example
 * ```ts
 * const cache = new TokenCache(10_000)
 * cache.set(3, entry, cache.generation)
 * cache.get(3, hashSecret(secret))
 * cache.invalidate({ token: 3 })
 * ```
 */
export class TokenCache {
  private readonly entries = new Map<number, VerifiedToken>()
  /** False while invalidations from other processes may be missed. */
  usable = true
  /** Counts invalidations: a read that began before one must not be kept (it may hold what was just revoked). */
  generation = 0
  /** The user models of the entries, whose writes drop their users' entries. */
  readonly userModels = new Set<typeof Model>()

  constructor(private readonly max: number) {}

  /** The entry for token `id` when it is fresh and `hash` matches. @example `cache.get(3, hash)` */
  get(id: number, hash: string): VerifiedToken | undefined {
    if (!this.usable) return undefined
    const entry = this.entries.get(id)
    if (!entry) return undefined
    if (entry.until <= Date.now()) {
      this.entries.delete(id)
      return undefined
    }
    return safeEqual(hash, entry.hash) ? entry : undefined
  }

  /**
   * Keeps an entry read at `generation`, dropping the oldest when full; not
   * when an invalidation came in since that read began.
   *
   * @example
   * ```ts
   * const generation = cache.generation
   * const rows = await read()
   * cache.set(3, entry, generation)
   * ```
   */
  set(id: number, entry: VerifiedToken, generation: number): void {
    if (!this.usable || generation !== this.generation) return
    this.entries.delete(id)
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!)
    this.entries.set(id, entry)
  }

  /** Drops what an invalidation names. @example `cache.invalidate({ user: '7' })` */
  invalidate(message: Invalidation): void {
    this.generation++
    if ('token' in message) this.entries.delete(message.token)
    else if ('user' in message) {
      for (const [id, entry] of this.entries) if (entry.userKey === message.user) this.entries.delete(id)
    } else this.entries.clear()
  }

  /** How many entries it holds. @example `cache.size` */
  get size(): number {
    return this.entries.size
  }
}

/**
 * True for a message another process published: one of the three shapes,
 * nothing else (it comes from the network).
 *
 * @example
 * ```ts
 * if (isInvalidation(JSON.parse(text))) cache.invalidate(message)
 * ```
 */
export function isInvalidation(value: unknown): value is Invalidation {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const keys = Object.keys(value)
  if (keys.length !== 1) return false
  const v = value as Record<string, unknown>
  if (keys[0] === 'token') return Number.isSafeInteger(v.token)
  if (keys[0] === 'user') return typeof v.user === 'string'
  return keys[0] === 'all' && v.all === true
}
