import { renderError, type HandlerFunction } from '../../../core/index.ts'
import { isBatch, runBatch } from './bundled-update.ts'
import type { CompServices } from '../lifecycle/component-hook.ts'
import { streamedUpdate } from './streamed-update.ts'
import { showsErrorPages } from './error-page.ts'
import { updateComponent } from '../lifecycle/update.ts'
import { checkEntry } from '../protocol/update-checks.ts'
import { parseUpdatePayload } from '../protocol/update-payload.ts'

export { EXPIRED_CODE } from '../protocol/update-checks.ts'

/**
 * `POST /comp/update`. It runs behind `signed:relative` (403 for a bare,
 * bad or expired address) and the `web` group (session, 419 without the
 * CSRF token). Then: the body's shape and limits (422), the nesting of the
 * snapshot (too deep counts as tampering, before anything recurses into it)
 * and of the updates and parameters (422), the snapshot's checksum (403
 * when tampered; an address that keeps failing gets 429), the session the
 * snapshot and the address were issued in and the snapshot's lifetime (419
 * with code `E_COMP_EXPIRED`, which the browser answers with a reload), and
 * the update itself. A body `{ components: [...] }` bundles several
 * components' updates (`features/bundling`), each checked the same way.
 * A failure answers as any request's would (JSON `{ message }` for a 4xx,
 * logged 500), except that in debug mode a 500 is the debug page for the
 * browser's client (it accepts HTML too), which shows it in its error dialog.
 *
 * @example
 * ```ts
 * Route.post('/comp/update', updateHandler(services)).middleware(['signed:relative', 'web'])
 * ```
 */
export function updateHandler(services: CompServices): HandlerFunction {
  const { limits } = services.config
  return async (ctx) => {
    try {
      // The features' hooks load on the process's first mount or update, not at boot.
      const pending = services.ready()
      if (pending) await pending
      const body = ctx.request.body()
      if (isBatch(body)) return await streamedUpdate(ctx, services.config.stream.max_kb, () => runBatch(services, ctx, body))
      const payload = parseUpdatePayload(limits, body)
      const refused = checkEntry(services, ctx, payload)
      if (refused) await refused
      // An action that calls this.stream() turns the answer into a stream (features/stream).
      return await streamedUpdate(ctx, services.config.stream.max_kb, () => updateComponent(services, payload, ctx))
    } catch (error) {
      return renderError(error, ctx, { debugPage: showsErrorPages(ctx) })
    }
  }
}
