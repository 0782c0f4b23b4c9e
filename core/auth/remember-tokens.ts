import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Kysely } from 'kysely'
import { KilnError } from '../support/errors.ts'

/** How a guard remembers users: the table, the cookie and how long a token lives. */
export interface RememberOptions {
  /** The table holding `selector`, `token_hash`, `previous_token_hash`, `rotated_at`, `user_id`, `password_fingerprint`, `expires_at`. */
  table: string
  /** The cookie's name (sealed with APP_KEY like every cookie of the `web` group). */
  cookie: string
  /** Lifetime in days of a token and its cookie. */
  days: number
}

/** What the cookie holds once split: which row (the series), and the secret whose hash that row keeps. */
export interface RememberCookie {
  selector: string
  token: string
}

/** A token just issued or rotated: the cookie's value, its lifetime and the series it belongs to. */
export interface IssuedRememberToken {
  value: string
  maxAge: number
  selector: string
}

/**
 * A row found by its selector, with the verdict on the secret: `valid` (the
 * current token), `previous` (the token it replaced, used again within the
 * grace: a parallel request of the same browser), `stolen` (any other token
 * under a known selector), `expired` or `unknown`.
 */
export type RememberLookup =
  | { state: 'unknown' }
  | { state: 'expired' }
  | { state: 'stolen'; userId: string }
  | { state: 'valid' | 'previous'; userId: string; passwordFingerprint: string | null }

/**
 * How long, in seconds, the token a rotation replaced still logs in (without
 * rotating again). A browser restoring its tabs sends the same cookie in
 * parallel; all but the first request arrive with the token it just replaced,
 * and must not be taken for a thief. Long enough for slow parallel requests,
 * short enough that a copy replayed later is caught.
 */
export const REMEMBER_GRACE_SECONDS = 60

const SELECTOR = /^[A-Za-z0-9_-]{16,64}$/
const TOKEN = /^[A-Za-z0-9_-]{32,128}$/
const ROTATION_COLUMNS = /previous_token_hash|rotated_at/
// How SQLite, PostgreSQL and MySQL say a column is missing (not just any error whose text quotes the statement).
const MISSING_COLUMN = /no such column|has no column named|column .* does not exist|unknown column/i

interface RememberRow {
  token_hash: string
  previous_token_hash: string | null
  rotated_at: number | string | null
  user_id: string
  password_fingerprint: string | null
  expires_at: number | string
}

/**
 * Remember-me tokens of one guard, in a database table. The cookie carries a
 * selector (which row: a "series" that lasts as long as the remembered login)
 * and a token; the table keeps only the token's SHA-256, compared in constant
 * time. Each use rotates the token and keeps the selector, so an old token
 * presented again under a live selector reveals a copied cookie. Each row
 * also keeps a fingerprint of the user's password hash, so a password changed
 * anywhere (profile, reset) ends every remembered device.
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

  /** Starts a new series for a user and returns the cookie's value. @example `await tokens.issue(1, null)` */
  async issue(userId: unknown, passwordFingerprint: string | null): Promise<IssuedRememberToken> {
    const selector = randomBytes(12).toString('base64url')
    const token = randomBytes(32).toString('base64url')
    const maxAge = this.options.days * 86_400
    const db = await this.db()
    await this.columns(
      db
        .insertInto(this.options.table)
        .values({
          selector,
          token_hash: sha256(token),
          // Named although null, so a table without the rotation columns fails here, at login, with a clear error.
          previous_token_hash: null,
          rotated_at: null,
          user_id: String(userId),
          password_fingerprint: passwordFingerprint,
          expires_at: nowSeconds() + maxAge,
        })
        .execute(),
    )
    return { value: `${selector}:${token}`, maxAge, selector }
  }

  /** Finds the row a cookie names and checks its secret. @example `await tokens.lookup(parseRememberCookie(raw)!)` */
  async lookup({ selector, token }: RememberCookie): Promise<RememberLookup> {
    const db = await this.db()
    const row = (await this.columns(
      db
        .selectFrom(this.options.table)
        .select(['token_hash', 'previous_token_hash', 'rotated_at', 'user_id', 'password_fingerprint', 'expires_at'])
        .where('selector', '=', selector)
        .executeTakeFirst(),
    )) as RememberRow | undefined
    if (!row) return { state: 'unknown' }
    if (Number(row.expires_at) <= nowSeconds()) {
      await this.forgetSelector(selector)
      return { state: 'expired' }
    }
    const userId = String(row.user_id)
    const hash = sha256(token)
    const found = { userId, passwordFingerprint: row.password_fingerprint ?? null }
    if (sameHash(row.token_hash, hash)) return { state: 'valid', ...found }
    const rotatedAt = row.rotated_at === null ? undefined : Number(row.rotated_at)
    if (row.previous_token_hash && sameHash(row.previous_token_hash, hash) && rotatedAt !== undefined && nowSeconds() - rotatedAt <= REMEMBER_GRACE_SECONDS) {
      return { state: 'previous', ...found }
    }
    return { state: 'stolen', userId }
  }

  /**
   * Replaces the current token of a series with a new one (and renews its
   * lifetime), keeping the replaced one for the grace. Only the request whose
   * token is still the current one wins: undefined when another request
   * rotated it first (or the series is gone).
   *
   * @example
   * ```ts
   * const rotated = await tokens.rotate({ selector, token })
   * ```
   */
  async rotate({ selector, token }: RememberCookie): Promise<IssuedRememberToken | undefined> {
    const fresh = randomBytes(32).toString('base64url')
    const maxAge = this.options.days * 86_400
    const current = sha256(token)
    const db = await this.db()
    const result = await this.columns(
      db
        .updateTable(this.options.table)
        .set({ token_hash: sha256(fresh), previous_token_hash: current, rotated_at: nowSeconds(), expires_at: nowSeconds() + maxAge })
        // Conditional: of parallel requests with the same token, one updates the row; the others find 0 rows and fall in the grace.
        .where('selector', '=', selector)
        .where('token_hash', '=', current)
        .executeTakeFirst(),
    )
    return Number(result.numUpdatedRows ?? 0) === 1 ? { value: `${selector}:${fresh}`, maxAge, selector } : undefined
  }

  /** The user of a live series, undefined once it is forgotten (theft, logout, password change). @example `await tokens.seriesUser(selector)` */
  async seriesUser(selector: string): Promise<string | undefined> {
    const db = await this.db()
    const row = (await db.selectFrom(this.options.table).select('user_id').where('selector', '=', selector).executeTakeFirst()) as
      { user_id: unknown } | undefined
    return row ? String(row.user_id) : undefined
  }

  /** Deletes one series (logged out, refused). @example `await tokens.forgetSelector(selector)` */
  async forgetSelector(selector: string): Promise<void> {
    const db = await this.db()
    await db.deleteFrom(this.options.table).where('selector', '=', selector).execute()
  }

  /** Deletes every series of a user (password changed, token theft). @example `await tokens.forgetUser(user.getKey())` */
  async forgetUser(userId: unknown): Promise<void> {
    const db = await this.db()
    await db.deleteFrom(this.options.table).where('user_id', '=', String(userId)).execute()
  }

  /** A query that names the rotation columns: a table made before them is a clear error, not the driver's SQL message. */
  private async columns<T>(query: Promise<T>): Promise<T> {
    try {
      return await query
    } catch (error) {
      const message = String((error as Error)?.message ?? error)
      if (!MISSING_COLUMN.test(message) || !ROTATION_COLUMNS.test(message)) throw error
      throw new KilnError(
        `The "${this.options.table}" table has no \`previous_token_hash\` and \`rotated_at\` columns, which remember-me tokens need since they are rotated ` +
          `within a series. Add a migration that adds them (the starter's is database/migrations/0008_add_rotation_to_remember_tokens.ts: ` +
          `previous_token_hash varchar(64) null, rotated_at bigint null), then run \`kiln migrate\`.`,
        { code: 'E_REMEMBER_TABLE_OUTDATED', cause: error },
      )
    }
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

function sameHash(stored: unknown, actual: string): boolean {
  const expected = Buffer.from(String(stored), 'hex')
  const given = Buffer.from(actual, 'hex')
  return expected.length === given.length && timingSafeEqual(expected, given)
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000)
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}
