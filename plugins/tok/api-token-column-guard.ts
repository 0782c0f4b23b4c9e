import { createHash } from 'node:crypto'
import { safeEqual, type AuthUser, type Guard, type HttpContext, type UserProvider } from '../../core/index.ts'

/** Options of the classic `token` guard. */
export interface TokenGuardConfig {
  /** The query parameter that may carry the token. Default `api_token`. */
  input_key?: string
  /** The users column holding the token. Default `api_token`. */
  storage_key?: string
  /** Store the column as a SHA-256 of the token. Default false. */
  hash?: boolean
}

/**
 * The classic `token` guard: one token per user in a `users.api_token`
 * column, sent as a Bearer token or an `api_token` query parameter. Simple,
 * for demos; personal access tokens (`tok`) are the production choice.
 *
 * @example
 * ```ts
 * guards: { api: { driver: 'token', provider: 'users', hash: true } }
 * ```
 */
export class TokenGuard implements Guard {
  constructor(
    readonly name: string,
    private readonly resolveProvider: () => UserProvider,
    private readonly config: TokenGuardConfig,
  ) {}

  get provider(): UserProvider {
    return this.resolveProvider()
  }

  async authenticate(ctx: HttpContext): Promise<AuthUser | undefined> {
    const inputKey = this.config.input_key ?? 'api_token'
    const column = this.config.storage_key ?? 'api_token'
    const fromQuery = ctx.request.query()[inputKey]
    const token = ctx.request.bearerToken() ?? (typeof fromQuery === 'string' ? fromQuery : undefined)
    if (!token || token.length > 512) return undefined
    const stored = this.config.hash ? createHash('sha256').update(token).digest('hex') : token
    const user = await this.provider.retrieveByCredentials({ [column]: stored })
    const actual = (user as unknown as { getAttribute?(k: string): unknown } | undefined)?.getAttribute?.(column)
    return user && typeof actual === 'string' && safeEqual(actual, stored) ? user : undefined
  }
}
