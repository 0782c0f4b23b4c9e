import { isPromiseLike } from '../../../../core/index.ts'
import { ValidationStop } from '../../component.ts'
import type { ActionCall, ComponentContext, ComponentHook } from '../../lifecycle/component-hook.ts'
import { jsonMethodsOf } from './json-decorator.ts'
import { jsonValue } from './json-value.ts'

/** One `@json()` call's result in the answer: its value, or its validation errors. */
export type JsonResult = { value: unknown } | { status: 422; errors: Record<string, string[]> }

/**
 * `@json()` actions: the value an action returns goes back in the answer
 * (`effects.json`, by the call's index), the component does not render for
 * it, and a validation failure is kept for that call (its promise rejects)
 * instead of going into the component's errors. The snapshot lists the
 * actions (`json`) for the browser, and adds them to the ones that run in
 * a request of their own (`async`, after `@async()`'s).
 *
 * @example
 * ```ts
 * const features = [bundling, jsonActions, ...]
 * ```
 */
export const jsonActions: ComponentHook = {
  name: 'json',
  action(c, call, invoke) {
    if (!jsonMethodsOf(c.Class).has(call.method)) return invoke()
    c.run.skipRender = true
    const before = c.run.errors
    const done = (value: unknown) => keep(c, call, { value: jsonValue(value, `${c.Class.name}.${call.method}`) })
    const failed = (error: unknown) => {
      if (!(error instanceof ValidationStop)) throw error
      keep(c, call, { status: 422, errors: c.run.errors })
      c.run.errors = before
    }
    let result: unknown
    try {
      result = invoke()
    } catch (error) {
      return failed(error)
    }
    return isPromiseLike(result) ? Promise.resolve(result).then(done, failed) : done(result)
  },
  dehydrate(c) {
    const methods = jsonMethodsOf(c.Class)
    if (methods.size === 0) return
    c.memo.json = [...methods]
    c.memo.async = [...new Set([...((c.memo.async as string[] | undefined) ?? []), ...methods])]
  },
}

function keep(c: ComponentContext, call: ActionCall, result: JsonResult): void {
  const results = (c.effects.json ??= {}) as Record<number, JsonResult>
  results[call.index] = result
}
