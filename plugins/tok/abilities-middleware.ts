import { HttpException, type Middleware, KilnError } from '../../core/index.ts'

interface AbilityUser {
  tokenCan?(ability: string): boolean
}

/**
 * `abilities:a,b`: the request's token must grant every listed ability.
 *
 * @example
 * ```ts
 * Route.post('/orders', handler).middleware(['auth:tok', 'abilities:orders:write,orders:read'])
 * ```
 */
export const checkAbilities: Middleware = (ctx, next, abilities) => {
  const user = ctx.request.user<AbilityUser>()
  if (!user) throw new HttpException(401, 'Unauthenticated.')
  if (!abilities.every((a) => user.tokenCan?.(a))) throw new HttpException(403, 'Invalid ability provided.')
  return next()
}

/**
 * `ability:a,b`: the request's token must grant at least one listed ability.
 *
 * @example
 * ```ts
 * Route.get('/orders', handler).middleware(['auth:tok', 'ability:orders:read,admin'])
 * ```
 */
export const checkForAnyAbility: Middleware = (ctx, next, abilities) => {
  const user = ctx.request.user<AbilityUser>()
  if (!user) throw new HttpException(401, 'Unauthenticated.')
  if (!abilities.some((a) => user.tokenCan?.(a))) throw new HttpException(403, 'Invalid ability provided.')
  return next()
}

/**
 * Refuses `abilities` / `ability` with no abilities at boot: with an empty
 * list, "every ability" is trivially true, and the route would be open to
 * any token.
 *
 * @example
 * ```ts
 * app.middleware.alias('abilities', checkAbilities, { validate: requireAbilities })
 * ```
 */
export function requireAbilities(abilities: string[]): void {
  if (abilities.length === 0)
    throw new KilnError('list at least one ability (abilities:orders:read,orders:write); with none, every token would pass.', { code: 'E_TOK_NO_ABILITIES' })
}
