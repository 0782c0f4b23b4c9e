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
import { joinableUserModel, readTokenWithUser, readTokenWithUserNow, type JoinableUser } from './token-lookup.ts'
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

  async authenticate(ctx: HttpContext): Promise<AuthUser | undefined> {
    if (ctx.session) {
      for (const guard of this.config().guard) {
        const user = (await ctx.auth.user(guard)) as TokenUser | undefined
        if (user) {
          user.withAccessToken?.(new TransientToken())
          return user
        }
      }
    }
    const parsed = parseBearer(ctx.request.bearerToken())
    if (!parsed || !hasValidChecksum(parsed.secret)) return undefined
    const hash = hashSecret(parsed.secret)
    const provider = this.provider
    const tokenModel = personalAccessTokenModel()
    const userModel = joinableUserModel(provider, tokenModel)
    const found = userModel ? await this.verify(parsed.id, hash, tokenModel, userModel) : await this.verifyApart(parsed.id, hash, tokenModel, provider)
    if (!found) return undefined
    const { token, user } = found
    user.withAccessToken?.(token)
    // Building and dispatching an event per request costs more than the lookup; skipped when nothing listens.
    if (TokenAuthenticated.isObserved()) await TokenAuthenticated.dispatch(token)
    this.touch(token)
    return user
  }

  /** The token and its user from one query (or the cache), each a fresh model. */
  private async verify(
    id: number,
    hash: string,
    tokenModel: typeof PersonalAccessToken,
    userModel: JoinableUser,
  ): Promise<{ token: PersonalAccessToken; user: TokenUser } | undefined> {
    const cache = tokenCache(this.app)
    const cached = cache?.get(id, hash)
    // Copies of attributes cast when the entry was made: a hit parses no date or JSON column again.
    if (cached) return { token: tokenModel.hydrateCopy(cached.token), user: userModel.hydrateCopy(cached.user) as unknown as TokenUser }
    const generation = cache?.generation
    // Synchronous on SQLite: no promise, which costs about as much as the read.
    const now = readTokenWithUserNow(tokenModel, userModel, id)
    const rows = now === undefined ? await readTokenWithUser(tokenModel, userModel, id) : (now ?? undefined)
    if (!rows || typeof rows.token.token !== 'string' || !safeEqual(hash, rows.token.token)) return undefined
    const token = tokenModel.hydrate(rows.token)
    const until = validUntil(token, this.config())
    if (until <= Date.now()) return undefined
    const userRecord = userModel.hydrate(rows.user)
    const user = userRecord as unknown as TokenUser
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
  private async verifyApart(
    id: number,
    hash: string,
    tokenModel: typeof PersonalAccessToken,
    provider: UserProvider,
  ): Promise<{ token: PersonalAccessToken; user: TokenUser } | undefined> {
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
