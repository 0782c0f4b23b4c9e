import type { HttpContext } from './http-context.ts'
import type { ResolvedMiddleware } from './middleware-registry.ts'
import { renderError } from '../errors/error-renderer.ts'
import { toResponse, withQueued } from '../responses/to-response.ts'

/** A composed chain: middleware around a final handler. */
export type Pipeline = (ctx: HttpContext) => Promise<Response>

/**
 * Composes middleware around a handler. Every layer sees a `Response` from
 * `next()`; an error thrown at any depth is rendered at that depth, so outer
 * middleware (session, cookies) still run and can add headers to error
 * responses. A middleware that returns nothing passes the downstream response
 * through.
 *
 * @example
 * ```ts
 * const run = compose(app.middleware.resolve(['web']), (ctx) => ({ ok: true }))
 * const response = await run(ctx)
 * ```
 */
export function compose(layers: readonly ResolvedMiddleware[], handler: (ctx: HttpContext) => unknown): Pipeline {
  if (layers.length === 0) {
    return async (ctx) => {
      try {
        return await toResponse(await handler(ctx), ctx)
      } catch (error) {
        return withQueued(renderError(error, ctx), ctx)
      }
    }
  }
  return (ctx) => {
    const dispatch = async (index: number): Promise<Response> => {
      try {
        if (index === layers.length) return await toResponse(await handler(ctx), ctx)
        const layer = layers[index]!
        let downstream: Response | undefined
        const next = async () => (downstream = await dispatch(index + 1))
        const result = await layer.fn(ctx, next, layer.params)
        if (result === undefined) return downstream ? withQueued(downstream, ctx) : await next()
        return await toResponse(result, ctx)
      } catch (error) {
        return withQueued(renderError(error, ctx), ctx)
      }
    }
    return dispatch(0)
  }
}
