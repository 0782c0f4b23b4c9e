import { Model } from '../../core/index.ts'

/**
 * A personal access token. `token` is the SHA-256 of the secret (hidden from
 * JSON); the secret itself is never stored.
 *
 * @example
 * ```ts
 * const token = await PersonalAccessToken.find(3)
 * token?.can('posts:write')
 * ```
 */
export class PersonalAccessToken extends Model {
  static table = 'personal_access_tokens'
  static casts = { abilities: 'json', last_used_at: 'date', expires_at: 'date' } as const
  static hidden = ['token']
  static fillable = ['name', 'token', 'abilities', 'expires_at', 'tokenable_type', 'tokenable_id']

  declare id: number
  declare name: string
  declare token: string
  declare abilities: string[]
  declare tokenable_type: string
  declare tokenable_id: number
  declare last_used_at: Date | null
  declare expires_at: Date | null

  /** `*` grants everything; otherwise an exact match. @example `token.can('orders:read')` */
  can(ability: string): boolean {
    const abilities = Array.isArray(this.abilities) ? this.abilities : []
    return abilities.includes('*') || abilities.includes(ability)
  }

  /** @example `token.cant('orders:delete')` */
  cant(ability: string): boolean {
    return !this.can(ability)
  }
}

/**
 * The "token" of a first-party SPA request authenticated by its session: it
 * can do everything, as the spec asks of `tokenCan` with no PAT.
 *
 * @example
 * ```ts
 * user.withAccessToken(new TransientToken())
 * ```
 */
export class TransientToken {
  can(): boolean {
    return true
  }
  cant(): boolean {
    return false
  }
  /** Nothing to revoke. */
  async delete(): Promise<boolean> {
    return false
  }
}

let tokenModel: typeof PersonalAccessToken = PersonalAccessToken

/**
 * Swaps the token model for a subclass (extra columns, another table).
 *
 * @example
 * ```ts
 * usePersonalAccessTokenModel(TeamToken)
 * ```
 */
export function usePersonalAccessTokenModel(model: typeof PersonalAccessToken): void {
  tokenModel = model
}

/** The token model in use. @example `personalAccessTokenModel().query()` */
export function personalAccessTokenModel(): typeof PersonalAccessToken {
  return tokenModel
}
