import type { ComponentHook } from '../../lifecycle/component-hook.ts'
import { asyncMethodsOf, isIsolated } from './bundling-decorators.ts'

/**
 * Bundling: the snapshot tells the browser which components go alone
 * (`isolate`, from `@isolate()`) and which actions run in parallel
 * (`async`, from `@async()`). The bundled request itself is handled by the
 * update route (`batch-update.ts`).
 *
 * @example
 * ```ts
 * const features = [bundling, ...]
 * ```
 */
export const bundling: ComponentHook = {
  name: 'bundling',
  dehydrate(c) {
    if (isIsolated(c.Class)) c.memo.isolate = true
    const methods = asyncMethodsOf(c.Class)
    if (methods.length > 0) c.memo.async = methods
  },
}
