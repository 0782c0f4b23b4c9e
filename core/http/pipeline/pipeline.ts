import type { HttpContext } from './http-context.ts'
import type { ResolvedMiddleware } from './middleware-registry.ts'
import { renderError } from '../errors/error-renderer.ts'
import { toResponse, toResponseNow, withQueued } from '../responses/to-response.ts'

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
  // Each promise costs an AsyncLocalStorage hook on Node 20, so a layer makes one (its own dispatch) and
  // awaits only what is really a promise: `next` is dispatch itself, not an async wrapper around it.
  return (ctx) => {
    // What each depth answered, for a middleware that calls next() and returns nothing.
    const answered: Array<Response | undefined> = []
    const dispatch = async (index: number): Promise<Response> => {
      let response: Response
      try {
        if (index === layers.length) {
          const returned = handler(ctx)
          const result = isPromise(returned) ? await returned : returned
          response = toResponseNow(result, ctx) ?? (await toResponse(result, ctx))
        } else {
          const layer = layers[index]!
          const returned = layer.fn(ctx, () => dispatch(index + 1), layer.params)
          const result = isPromise(returned) ? await returned : returned
          if (result === undefined) {
            const downstream = answered[index + 1]
            response = downstream ? withQueued(downstream, ctx) : await dispatch(index + 1)
          } else response = toResponseNow(result, ctx) ?? (await toResponse(result, ctx))
        }
      } catch (error) {
        response = withQueued(renderError(error, ctx), ctx)
      }
      answered[index] = response
      return response
    }
    return dispatch(0)
  }
}

function isPromise(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function'
}
