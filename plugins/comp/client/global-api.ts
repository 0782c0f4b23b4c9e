import { components, dispatchEvent } from './registry.ts'
import { registerDirective, type CustomDirective } from './directives/index.ts'

type Wire = Record<string, unknown>

/**
 * The parts of `window.comp` that reach components from any script, as
 * Livewire's global object does: `find(id)`, `first()`, `all()` and
 * `getByName(name)` give `$wire` objects; `dispatch`, `dispatchTo` and `on`
 * are component events from outside a component; `directive(name, handler)`
 * adds a `wire:<name>` directive.
 *
 * @example
 * ```js
 * comp.on('post-created', ({ id }) => console.log(id))
 * comp.dispatchTo('dashboard', 'post-created', { id: 2 })
 * comp.getByName('counter')[0].$call('increment')
 * ```
 */
export const globalApi = {
  find: (id: string): Wire | undefined => components.get(id)?.$wire,
  first: (): Wire | undefined => components.values().next().value?.$wire,
  all: (): Wire[] => [...components.values()].map((component) => component.$wire),
  getByName: (name: string): Wire[] => [...components.values()].filter((component) => component.name === name).map((component) => component.$wire),
  dispatch: (name: string, params: Record<string, unknown> = {}): void => dispatchEvent(name, params),
  dispatchTo: (to: string, name: string, params: Record<string, unknown> = {}): void => dispatchEvent(name, params, undefined, { to }),
  /** Hears a component event (from the server or the browser); returns a function that stops listening. */
  on: (name: string, handler: (detail: unknown) => void): (() => void) => {
    const listener = (event: Event) => handler((event as CustomEvent).detail)
    window.addEventListener(name, listener)
    return () => window.removeEventListener(name, listener)
  },
  directive: (name: string, handler: CustomDirective): void => registerDirective(name, handler),
}
