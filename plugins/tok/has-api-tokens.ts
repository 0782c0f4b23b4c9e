import { currentApp, Model, type ModelQuery } from '../../core/index.ts'
import { personalAccessTokenModel, type PersonalAccessToken, TransientToken } from './personal-access-token.ts'
import type { TokConfig } from './tok-config.ts'
import { hashSecret, newSecret } from './token-secret.ts'

/** What `createToken` returns: the stored token and the one-time plain text. */
export interface NewAccessToken {
  accessToken: PersonalAccessToken
  /** `{id}|{secret}`: shown once, never stored. */
  plainTextToken: string
}

type ModelConstructor = new (...args: any[]) => Model

/**
 * Personal access tokens for a user model. Mix it in first:
 * `class User extends HasApiTokens(Authenticatable(Model))`.
 *
 * @example
 * ```ts
 * const { plainTextToken } = await user.createToken('cli', ['posts:read'])
 * user.tokenCan('posts:read')          // for the request's token
 * await user.tokens().where('id', '=', 3).first()
 * await user.tokensDelete()
 * ```
 */
export function HasApiTokens<TBase extends ModelConstructor>(Base: TBase) {
  class WithApiTokens extends Base {
    /** @internal the token of the current request (set by the tok guard). */
    $accessToken?: PersonalAccessToken | TransientToken

    /** The user's tokens, as a query. @example `user.tokens().get()` */
    tokens(): ModelQuery<PersonalAccessToken> {
      return this.morphMany(personalAccessTokenModel() as never, 'tokenable') as ModelQuery<PersonalAccessToken>
    }

    /**
     * Issues a token. It expires at `expiresAt` or after `tok.expiration`
     * minutes, whichever comes first: the configured lifetime caps every
     * token, and `expires_at` stores the real end.
     *
     * @example
     * ```ts
     * const { accessToken, plainTextToken } = await user.createToken('phone', ['*'], { expiresAt: inOneWeek })
     * ```
     */
    async createToken(name: string, abilities: string[] = ['*'], options: { expiresAt?: Date | null } = {}): Promise<NewAccessToken> {
      const config = currentApp().config.get<TokConfig>('tok')
      const secret = newSecret(config.token_prefix)
      const cap = config.expiration ? new Date(Date.now() + config.expiration * 60_000) : null
      const own = options.expiresAt ?? null
      const expiresAt = own && cap ? (own < cap ? own : cap) : (own ?? cap)
      const accessToken = await this.tokens().create({ name, token: hashSecret(secret), abilities: [...abilities], expires_at: expiresAt })
      return { accessToken, plainTextToken: `${accessToken.getKey()}|${secret}` }
    }

    /** The token of the current request (a transient one for SPA session requests). @example `await user.currentAccessToken()?.delete()` */
    currentAccessToken(): PersonalAccessToken | TransientToken | undefined {
      return this.$accessToken
    }

    /** Sets the request's token. @internal @example `user.withAccessToken(token)` */
    withAccessToken(token: PersonalAccessToken | TransientToken): this {
      this.$accessToken = token
      return this
    }

    /** True when the request's token grants the ability (`*` grants all; SPA session requests can do everything). @example `user.tokenCan('posts:write')` */
    tokenCan(ability: string): boolean {
      return this.$accessToken?.can(ability) ?? false
    }

    /** @example `user.tokenCant('posts:delete')` */
    tokenCant(ability: string): boolean {
      return !this.tokenCan(ability)
    }

    /** Revokes every token of the user. @example `await user.tokensDelete()` */
    async tokensDelete(): Promise<number> {
      return this.tokens().delete()
    }
  }
  return WithApiTokens
}
