import {
  DatabaseBusyError,
  Event,
  runWithApp,
  safeEqual,
  type Application,
  type AuthUser,
  type Guard,
  type HttpContext,
  type UserProvider,
} from '../../core/index.ts'
import { parseBearer } from './parse-bearer.ts'
import { personalAccessTokenModel, type PersonalAccessToken, TransientToken } from './personal-access-token.ts'
import type { TokConfig } from './tok-config.ts'
import { tokenCache } from './token-cache-registry.ts'
import { userKey } from './token-cache-sync.ts'
import { joinableUserModel, readTokenWithUser, readTokenWithUserNow, type JoinableUser, type TokenRows } from './token-lookup.ts'
import { hasValidChecksum, hashSecret } from './token-secret.ts'

/**
 * Dispatched when a request authenticates with a personal access token.
 *
 * @example
 * ```ts
 * Event.listen(TokenAuthenticated, (e) => audit(e.token.id))
 * ```
 */
export class TokenAuthenticated extends Event {
  constructor(public token: PersonalAccessToken) {
    super()
  }
}

interface TokenUser extends AuthUser {
  withAccessToken?(token: PersonalAccessToken | TransientToken): unknown
}

/** A token that passed every check, and its user. */
interface Verified {
  token: PersonalAccessToken
  user: TokenUser
}

/**
 * The `tok` guard: first the session guards of `tok.guard` (first-party SPA
 * requests that carry a session), then `Authorization: Bearer {id}|{secret}`.
 * A token counts only when its id is all digits, its CRC and SHA-256 match
 * (compared in constant time), it has not expired, and it belongs to the
 * provider's model. With the stock `model` provider the token and its user
 * are one prepared query (or a hit of the `tok.cache` verified-token cache);
 * `TokenAuthenticated` is dispatched only when something observes it.
 * `last_used_at` is written off the request path, at most
 * once a minute per token, for all recently used tokens in one statement,
 * and skipped when the database is busy.
 *
 * @example
 * ```ts
 * // config/auth.ts
 * guards: { tok: { driver: 'tok', provider: 'users' } }
 * ```
 */
export class TokGuard implements Guard {
  private readonly lastTouched = new Map<number, number>()
  /** Tokens used since the last write of `last_used_at`, with when. */
  private readonly pendingTouches = new Map<number, number>()
  private flushScheduled = false

  constructor(
    private readonly app: Application,
    readonly name: string,
    private readonly resolveProvider: () => UserProvider,
  ) {}

  get provider(): UserProvider {
    return this.resolveProvider()
  }

  // Async: what authenticateNow throws at once (a failed read) reaches a caller of the Guard contract as a rejection.
  async authenticate(ctx: HttpContext): Promise<AuthUser | undefined> {
    return this.authenticateNow(ctx)
  }

  /**
   * The user at once, without a promise, when nothing has to be awaited: no
   * session, and the token found in the `tok.cache` or read synchronously
   * (SQLite), with no `TokenAuthenticated` listener. Otherwise a promise.
   * Each promise of a request costs an AsyncLocalStorage hook on Node 20.
   *
   * @example
   * ```ts
   * const found = guard.authenticateNow(ctx)
   * const user = isPromiseLike(found) ? await found : found
   * ```
   */
  authenticateNow(ctx: HttpContext): AuthUser | undefined | Promise<AuthUser | undefined> {
    return ctx.session ? this.sessionOrBearer(ctx) : this.bearer(ctx)
  }

  /** First-party SPA requests: the session guards of `tok.guard` first, then the Bearer token. */
  private async sessionOrBearer(ctx: HttpContext): Promise<AuthUser | undefined> {
    for (const guard of this.config().guard) {
      const user = (await ctx.auth.user(guard)) as TokenUser | undefined
      if (user) {
        user.withAccessToken?.(new TransientToken())
        return user
      }
    }
    return this.bearer(ctx)
  }

  private bearer(ctx: HttpContext): AuthUser | undefined | Promise<AuthUser | undefined> {
    const parsed = parseBearer(ctx.request.bearerToken())
    if (!parsed || !hasValidChecksum(parsed.secret)) return undefined
    const hash = hashSecret(parsed.secret)
    const provider = this.provider
    const tokenModel = personalAccessTokenModel()
    const userModel = joinableUserModel(provider, tokenModel)
    const found = userModel ? this.verify(parsed.id, hash, tokenModel, userModel) : this.verifyApart(parsed.id, hash, tokenModel, provider)
    return found instanceof Promise ? found.then((verified) => this.accept(verified)) : this.accept(found)
  }

  /** A verified token's user, after the event (when observed) and the last-used bookkeeping. */
  private accept(found: Verified | undefined): AuthUser | undefined | Promise<AuthUser | undefined> {
    if (!found) return undefined
    const { token, user } = found
    user.withAccessToken?.(token)
    // Building and dispatching an event per request costs more than the lookup; skipped when nothing listens.
    if (TokenAuthenticated.isObserved())
      return TokenAuthenticated.dispatch(token).then(() => {
        this.touch(token)
        return user
      })
    this.touch(token)
    return user
  }

  /** The token and its user from one query (or the cache), each a fresh model: at once when the read needs no promise. */
  private verify(
    id: number,
    hash: string,
    tokenModel: typeof PersonalAccessToken,
    userModel: JoinableUser,
  ): Verified | undefined | Promise<Verified | undefined> {
    const cache = tokenCache(this.app)
    const cached = cache?.get(id, hash)
    // Copies of attributes cast when the entry was made: a hit parses no date or JSON column again.
    if (cached) return { token: tokenModel.hydrateCopy(cached.token), user: userModel.hydrateCopy(cached.user) as unknown as TokenUser }
    const generation = cache?.generation
    // Synchronous on SQLite: no promise, which costs about as much as the read.
    const now = readTokenWithUserNow(tokenModel, userModel, id)
    if (now !== undefined) return this.verified(id, now ?? undefined, hash, tokenModel, userModel, generation)
    return readTokenWithUser(tokenModel, userModel, id).then((rows) => this.verified(id, rows, hash, tokenModel, userModel, generation))
  }

  /** The rows of a token and its user checked (hash in constant time, expiry) and made models, and cached when the cache is on. */
  private verified(
    id: number,
    rows: TokenRows | undefined,
    hash: string,
    tokenModel: typeof PersonalAccessToken,
    userModel: JoinableUser,
    generation: number | undefined,
  ): Verified | undefined {
    if (!rows || typeof rows.token.token !== 'string' || !safeEqual(hash, rows.token.token)) return undefined
    const token = tokenModel.hydrate(rows.token)
    const until = validUntil(token, this.config())
    if (until <= Date.now()) return undefined
    const userRecord = userModel.hydrate(rows.user)
    const user = userRecord as unknown as TokenUser
    const cache = tokenCache(this.app)
    if (cache) {
      cache.userModels.add(userModel)
      const ttl = this.config().cache.ttl * 1000
      cache.set(
        id,
        {
          hash,
          // Copies taken before the route runs: what it changes on its models never reaches the cache.
          token: tokenModel.hydrateCopy(token.$attributes).$attributes,
          user: userModel.hydrateCopy(userRecord.$attributes).$attributes,
          userKey: userKey(userModel, user.getKey()),
          until: Math.min(until, Date.now() + ttl),
        },
        generation!,
      )
    }
    return { token, user }
  }

  /** A provider with its own `retrieveById`: the token, then the user through the provider. */
  private async verifyApart(id: number, hash: string, tokenModel: typeof PersonalAccessToken, provider: UserProvider): Promise<Verified | undefined> {
    const token = await tokenModel.find(id)
    if (!token || !safeEqual(hash, String(token.token))) return undefined
    if (validUntil(token, this.config()) <= Date.now()) return undefined
    const model = provider.model as { name?: string; morphName?: string } | undefined
    if (model && token.tokenable_type !== (model.morphName ?? model.name)) return undefined
    const user = (await provider.retrieveById(token.tokenable_id)) as TokenUser | undefined
    return user ? { token, user } : undefined
  }

  private config(): TokConfig {
    return this.app.config.get<TokConfig>('tok')
  }

  private touch(token: PersonalAccessToken): void {
    const id = token.getKey() as number
    const now = Date.now()
    if (now - (this.lastTouched.get(id) ?? 0) < 60_000) return
    // Bounded: a flood of distinct tokens must not grow the map for ever.
    if (this.lastTouched.size >= 10_000) this.lastTouched.clear()
    this.lastTouched.set(id, now)
    this.pendingTouches.set(id, now)
    if (this.flushScheduled) return
    this.flushScheduled = true
    // After the response, and one statement for every token used meanwhile.
    setTimeout(() => void this.flushTouches(), 250).unref()
  }

  private async flushTouches(): Promise<void> {
    this.flushScheduled = false
    const batch = [...this.pendingTouches]
    this.pendingTouches.clear()
    if (batch.length === 0) return
    const at = new Date(Math.max(...batch.map(([, when]) => when)))
    const skip = () => {
      // The next use of these tokens records them again.
      for (const [id] of batch) this.lastTouched.delete(id)
    }
    try {
      // Never waits for a lock: with SQLite, waiting would hold every request of the process.
      const updated = await runWithApp(this.app, () =>
        personalAccessTokenModel()
          .query()
          .whereIn(
            'id',
            batch.map(([id]) => id),
          )
          .tryUpdate({ last_used_at: at }),
      )
      if (updated === undefined) skip()
    } catch (error) {
      // An unreachable database skips this round too: last_used_at is bookkeeping, never worth a wait.
      skip()
      if (!(error instanceof DatabaseBusyError))
        this.app.logger.warn({ err: error instanceof Error ? error.message : String(error), tokens: batch.length }, 'Could not record last_used_at for tokens')
    }
  }
}

/** When the token stops counting (ms since the epoch; Infinity for never): its `expires_at`, or `tok.expiration` after it was made. */
function validUntil(token: PersonalAccessToken, config: TokConfig): number {
  let until = Infinity
  if (token.expires_at) until = new Date(token.expires_at).getTime()
  const created = token.getAttribute<Date | undefined>('created_at')
  if (config.expiration && created) until = Math.min(until, new Date(created).getTime() + config.expiration * 60_000)
  return until
}
