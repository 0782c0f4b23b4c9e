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
  // Each promise costs an AsyncLocalStorage hook on Node 20, so a layer makes a promise only when it must:
  // `next` is dispatch itself, a layer that answers `return next()` hands on the downstream promise as it
  // is (dispatch never rejects: every depth renders its own errors), a synchronous answer becomes a
  // `Response` at once, in one resolved promise, and an asynchronous one costs a single `then`.
  return (ctx) => {
    const dispatch = (index: number): Promise<Response> => {
      let downstream: Promise<Response> | undefined
      let returned: unknown
      try {
        if (index === layers.length) returned = handler(ctx)
        else {
          const layer = layers[index]!
          returned = layer.fn(ctx, () => (downstream = dispatch(index + 1)), layer.params)
          // `return next()`: nothing runs after the downstream answer, which merged its queued state itself.
          if (returned !== undefined && returned === downstream) return downstream
        }
        // Nothing from a middleware means "pass on the downstream answer"; from the handler it is a 204.
        if (!isPromise(returned) && (returned !== undefined || index === layers.length)) {
          const response = toResponseNow(returned, ctx)
          if (response) return Promise.resolve(response)
        }
      } catch (error) {
        return Promise.resolve(withQueued(renderError(error, ctx), ctx))
      }
      const downstreamOrRun = () => downstream ?? dispatch(index + 1)
      const isHandler = index === layers.length
      // A promise: one `then` (not an async function awaiting it, which would make two).
      if (isPromise(returned)) {
        return Promise.resolve(returned).then(
          (result) => finish(ctx, result, isHandler, downstreamOrRun),
          (error: unknown) => withQueued(renderError(error, ctx), ctx),
        )
      }
      return Promise.resolve(finish(ctx, returned, isHandler, downstreamOrRun))
    }
    return dispatch(0)
  }
}

/** A layer's answer as a `Response`: nothing from a middleware passes the downstream response on; a `Responsable` renders. */
function finish(ctx: HttpContext, result: unknown, isHandler: boolean, downstream: () => Promise<Response>): Response | Promise<Response> {
  try {
    if (result === undefined && !isHandler) return downstream().then((response) => withQueued(response, ctx))
    return toResponseNow(result, ctx) ?? toResponse(result, ctx).catch((error: unknown) => withQueued(renderError(error, ctx), ctx))
  } catch (error) {
    return withQueued(renderError(error, ctx), ctx)
  }
}

function isPromise(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function'
}
