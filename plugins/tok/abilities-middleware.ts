import { HttpException, type Middleware } from '../../core/index.ts'

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
