import type { PageComponent } from './page-component.ts'

/** What a feature does in the browser with one effect of an update's answer. */
export type EffectHandler = (component: PageComponent, value: never) => void

const handlers: Array<[string, EffectHandler]> = []

/**
 * Registers what the browser does with an effect (`redirect`, `js`,
 * `islands`…) of an update's answer: the client half of a feature's
 * `dehydrate` hook. Handlers run after the state and the HTML are applied,
 * in the order the features registered them (`features/client.ts`).
 *
 * @example
 * ```ts
 * onEffect('redirect', (component, url: string) => navigate(url))
 * ```
 */
export function onEffect<T>(name: string, handler: (component: PageComponent, value: T) => void): void {
  handlers.push([name, handler as EffectHandler])
}

/**
 * Runs the registered handler of each effect present in an answer.
 *
 * @example
 * ```ts
 * applyEffects(component, response.effects)
 * ```
 */
export function applyEffects(component: PageComponent, effects: object): void {
  const present = effects as Record<string, unknown>
  for (const [name, handler] of handlers)
    if (present[name] !== undefined) (handler as (component: PageComponent, value: unknown) => void)(component, present[name])
}

/** Runs an answer's HTML and effects: at once, or later (inside a view transition). */
export type ApplyWrapper = (component: PageComponent, effects: Record<string, unknown>, apply: () => void) => void

let around: ApplyWrapper = (_component, _effects, apply) => apply()

/**
 * Wraps how an answer's HTML and effects are applied, for a feature that
 * must act before and after the page changes (view transitions). The
 * wrapper calls `apply` once, now or later.
 *
 * @example
 * ```ts
 * wrapApply((component, effects, apply) => (effects.slow ? setTimeout(apply) : apply()))
 * ```
 */
export function wrapApply(wrapper: ApplyWrapper): void {
  const inner = around
  around = (component, effects, apply) => wrapper(component, effects, () => inner(component, effects, apply))
}

/**
 * Applies an answer's HTML and effects through the registered wrappers;
 * resolves once they are applied (a frame later in a view transition), so
 * `await $wire.save()` sees the new page.
 *
 * @example
 * ```ts
 * await applyWrapped(component, effects, () => morph())
 * ```
 */
export function applyWrapped(component: PageComponent, effects: object, apply: () => void): Promise<void> {
  return new Promise((resolve, reject) =>
    around(component, effects as Record<string, unknown>, () => {
      try {
        apply()
        resolve()
      } catch (error) {
        reject(error as Error)
      }
    }),
  )
}
