import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Kysely } from 'kysely'

/** How a guard remembers users: the table, the cookie and how long a token lives. */
export interface RememberOptions {
  /** The table holding `selector`, `token_hash`, `user_id`, `password_fingerprint`, `expires_at`. */
  table: string
  /** The cookie's name (sealed with APP_KEY like every cookie of the `web` group). */
  cookie: string
  /** Lifetime in days of a token and its cookie. */
  days: number
}

/** What the cookie holds once split: which row, and the secret whose hash that row keeps. */
export interface RememberCookie {
  selector: string
  token: string
}

/** A token just issued: the cookie's value and its lifetime. */
export interface IssuedRememberToken {
  value: string
  maxAge: number
}

/** A row found by its selector, with the verdict on the secret. */
export type RememberLookup =
  { state: 'unknown' } | { state: 'expired' } | { state: 'mismatch'; userId: string } | { state: 'valid'; userId: string; passwordFingerprint: string | null }

const SELECTOR = /^[A-Za-z0-9_-]{16,64}$/
const TOKEN = /^[A-Za-z0-9_-]{32,128}$/

/**
 * Remember-me tokens of one guard, in a database table. The cookie carries a
 * selector (which row) and a token; the table keeps only the token's SHA-256,
 * compared in constant time. A token is used once: logging in from it
 * deletes its row and issues a new one. Each row also keeps a fingerprint of
 * the user's password hash, so a password changed anywhere (profile, reset)
 * ends every remembered device.
 *
 * @example
 * ```ts
 * const tokens = new RememberTokens(() => app.service('db').kysely(), { table: 'remember_tokens', cookie: 'remember_web', days: 400 })
 * const { value } = await tokens.issue(user.getKey(), passwordFingerprint(user))
 * ```
 */
export class RememberTokens {
  constructor(
    private readonly db: () => Promise<Kysely<any>>,
    readonly options: RememberOptions,
  ) {}

  /** Stores a new token for a user and returns the cookie's value. @example `await tokens.issue(1, null)` */
  async issue(userId: unknown, passwordFingerprint: string | null): Promise<IssuedRememberToken> {
    const selector = randomBytes(12).toString('base64url')
    const token = randomBytes(32).toString('base64url')
    const maxAge = this.options.days * 86_400
    const db = await this.db()
    await db
      .insertInto(this.options.table)
      .values({
        selector,
        token_hash: sha256(token),
        user_id: String(userId),
        password_fingerprint: passwordFingerprint,
        expires_at: Math.floor(Date.now() / 1000) + maxAge,
      })
      .execute()
    return { value: `${selector}:${token}`, maxAge }
  }

  /** Finds the row a cookie names and checks its secret. @example `await tokens.lookup(parseRememberCookie(raw)!)` */
  async lookup({ selector, token }: RememberCookie): Promise<RememberLookup> {
    const db = await this.db()
    const row = (await db
      .selectFrom(this.options.table)
      .select(['token_hash', 'user_id', 'password_fingerprint', 'expires_at'])
      .where('selector', '=', selector)
      .executeTakeFirst()) as { token_hash: string; user_id: string; password_fingerprint: string | null; expires_at: number | string } | undefined
    if (!row) return { state: 'unknown' }
    if (Number(row.expires_at) * 1000 <= Date.now()) {
      await this.forgetSelector(selector)
      return { state: 'expired' }
    }
    const expected = Buffer.from(String(row.token_hash), 'hex')
    const actual = Buffer.from(sha256(token), 'hex')
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return { state: 'mismatch', userId: String(row.user_id) }
    return { state: 'valid', userId: String(row.user_id), passwordFingerprint: row.password_fingerprint ?? null }
  }

  /** Deletes one token (used, or logged out). @example `await tokens.forgetSelector(selector)` */
  async forgetSelector(selector: string): Promise<void> {
    const db = await this.db()
    await db.deleteFrom(this.options.table).where('selector', '=', selector).execute()
  }

  /** Deletes every token of a user (password changed, token theft suspected). @example `await tokens.forgetUser(user.getKey())` */
  async forgetUser(userId: unknown): Promise<void> {
    const db = await this.db()
    await db.deleteFrom(this.options.table).where('user_id', '=', String(userId)).execute()
  }
}

/**
 * Splits a remember cookie into selector and token; undefined for anything
 * else, so a forged cookie never reaches the database.
 *
 * @example
 * ```ts
 * parseRememberCookie('abc...:xyz...')
 * ```
 */
export function parseRememberCookie(value: string | undefined): RememberCookie | undefined {
  if (!value) return undefined
  const [selector, token, extra] = value.split(':')
  if (extra !== undefined || !selector || !token || !SELECTOR.test(selector) || !TOKEN.test(token)) return undefined
  return { selector, token }
}

/**
 * A short fingerprint of a user's password hash (never the hash itself): it
 * changes whenever the password does. Users without a password have none.
 *
 * @example
 * ```ts
 * passwordFingerprint(user) // 'f3a1…' or null
 * ```
 */
export function passwordFingerprint(user: unknown): string | null {
  const hash = (user as { getAuthPassword?: () => unknown }).getAuthPassword?.()
  return typeof hash === 'string' && hash.length > 0 ? sha256(`remember:${hash}`).slice(0, 32) : null
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}
