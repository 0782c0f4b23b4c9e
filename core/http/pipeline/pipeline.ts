import type { HttpContext } from './http-context.ts'
import type { ResolvedMiddleware } from './middleware-registry.ts'
import { takesNextNow } from './middleware.ts'
import { renderError } from '../errors/error-renderer.ts'
import { toResponse, toResponseNow, withQueued } from '../responses/to-response.ts'

/** A composed chain: middleware around a final handler. A `Response` when the answer was known at once. */
export type Pipeline = (ctx: HttpContext) => Response | Promise<Response>

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
  // Each promise costs an AsyncLocalStorage hook on Node 20, so a layer makes a promise only when it must: a
  // synchronous answer is a `Response` (bare h3 and srvx make no promise for one either), a layer that answers
  // `return next()` hands on the downstream answer as it is (dispatch never rejects: every depth renders its own
  // errors), and an asynchronous answer costs a single `then`. The kernel's own middleware (`middlewareNow`) get a
  // `next` that gives the `Response` itself when it is known, so a request through them makes no promise at all;
  // an application's middleware get a promise, as `Next` says.
  const nextNow = layers.map((layer) => takesNextNow(layer.fn))
  return (ctx) => {
    const dispatch = (index: number): Response | Promise<Response> => {
      let downstream: Response | Promise<Response> | undefined
      let returned: unknown
      try {
        if (index === layers.length) returned = handler(ctx)
        else {
          const layer = layers[index]!
          const next = nextNow[index] ? () => (downstream = dispatch(index + 1)) : () => (downstream = promised(dispatch(index + 1)))
          returned = layer.fn(ctx, next as () => Promise<Response>, layer.params)
          // `return next()` as a promise: nothing ran after the downstream answer, which merged its queued state
          // itself. The same `Response` back from a kernel middleware may come after work (the session's cookies).
          if (returned !== undefined && returned === downstream) return downstream instanceof Response ? withQueued(downstream, ctx) : downstream
        }
        // Nothing from a middleware means "pass on the downstream answer"; from the handler it is a 204.
        if (!isPromise(returned) && (returned !== undefined || index === layers.length)) {
          const response = toResponseNow(returned, ctx)
          if (response) return response
        }
      } catch (error) {
        return withQueued(renderError(error, ctx), ctx)
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
      return finish(ctx, returned, isHandler, downstreamOrRun)
    }
    return dispatch(0)
  }
}

/** A layer's answer as a `Response`: nothing from a middleware passes the downstream response on; a `Responsable` renders. */
function finish(ctx: HttpContext, result: unknown, isHandler: boolean, downstream: () => Response | Promise<Response>): Response | Promise<Response> {
  try {
    if (result === undefined && !isHandler) {
      const answer = downstream()
      return answer instanceof Response ? withQueued(answer, ctx) : answer.then((response) => withQueued(response, ctx))
    }
    return toResponseNow(result, ctx) ?? toResponse(result, ctx).catch((error: unknown) => withQueued(renderError(error, ctx), ctx))
  } catch (error) {
    return withQueued(renderError(error, ctx), ctx)
  }
}

/** What an application's middleware gets from `next()`: always a promise, as its type says. */
function promised(answer: Response | Promise<Response>): Promise<Response> {
  return answer instanceof Response ? Promise.resolve(answer) : answer
}

function isPromise(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function'
}
