import Handlebars from 'handlebars'
import { currentApp, currentHttpContext } from '../../core/index.ts'
import type { ComponentClass } from './registry/registry.ts'

/**
 * A component's HTML, from TypeScript: pass it to a view, which prints it
 * with `{{...}}` (it is a `SafeString`; `{{{...}}}` works too).
 *
 * @example
 * ```ts
 * import { compHelper as comp } from 'kiln-framework/comp'
 * Route.get('/', async () => view('home', { counter: await comp('counter', { start: 5 }) }))
 * ```
 */
export async function comp(name: string | ComponentClass, params: Record<string, unknown> = {}): Promise<Handlebars.SafeString> {
  const manager = currentApp().service('comp')
  return new Handlebars.SafeString((await manager.mount(name, params, { ctx: currentHttpContext() })).html)
}
