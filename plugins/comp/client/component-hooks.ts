import type { PageComponent } from './page-component.ts'

/** What a feature does when a component starts in the page, or leaves it. */
export interface ComponentHooks {
  start?(component: PageComponent): void
  remove?(component: PageComponent): void
}

const registered: ComponentHooks[] = []

/**
 * Registers what a feature's browser half does when a component starts
 * (its snapshot read, its element live) and when it is removed from the
 * page (its element gone, not moved to a new root): the place to open and
 * close what a component holds outside its element, such as a channel
 * subscription.
 *
 * @example
 * ```ts
 * onComponent({ start: (component) => subscribe(component), remove: (component) => unsubscribe(component) })
 * ```
 */
export function onComponent(hooks: ComponentHooks): void {
  registered.push(hooks)
}

/**
 * Runs the registered hooks of one moment; a feature's mistake is logged and the others still run.
 *
 * @example
 * ```ts
 * componentMoment('start', component)
 * ```
 */
export function componentMoment(moment: keyof ComponentHooks, component: PageComponent): void {
  for (const hooks of registered)
    try {
      hooks[moment]?.(component)
    } catch (error) {
      console.error(error)
    }
}
