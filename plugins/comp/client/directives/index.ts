import { alpine } from '../alpine.ts'
import type { PageComponent } from '../page-component.ts'
import { eventAction, initAction, intersectAction, pollAction } from './actions.ts'
import { bindDirective, connectivityDirective, dirtyDirective, refDirective, showDirective, textDirective } from './display.ts'
import { loadingDirective } from './loading.ts'
import { modelDirective } from './model.ts'
import { directivesOf, type Directive } from './parse.ts'
import { sortDirective } from './sort.ts'
import { transitionDirective } from './transition.ts'

/** What starts one `wire:<name>` directive on one element of a component. */
export type DirectiveHandler = (component: PageComponent, el: Element, directive: Directive) => void

const HANDLERS: Record<string, DirectiveHandler> = {
  model: modelDirective,
  text: textDirective,
  show: showDirective,
  bind: bindDirective,
  loading: loadingDirective,
  dirty: dirtyDirective,
  offline: connectivityDirective,
  online: connectivityDirective,
  ref: refDirective,
  sort: sortDirective,
  init: initAction,
  poll: pollAction,
  intersect: intersectAction,
  transition: transitionDirective,
  // Read by the morph (apply.ts) and by the page-wide link marking (current.ts), not started per element.
  replace: () => {},
  current: () => {},
}

/**
 * Adds a `wire:<name>` directive from a feature's browser half (props'
 * `wire:modelable`), as Livewire's `directive()`: registered before the
 * page's scripts run, it is built in for them (`comp.directive` cannot
 * replace it).
 *
 * @example
 * ```ts
 * directive('modelable', (component, el, { value }) => follow(component, el, value))
 * ```
 */
export function directive(name: string, handler: DirectiveHandler): void {
  HANDLERS[name] = handler
}

/** What `comp.directive(name, handler)` is given for each element that carries `wire:<name>`. */
export type CustomDirective = (context: {
  el: Element
  directive: Directive
  /** The component's `$wire`. */
  component: Record<string, unknown>
  /** Runs `fn` when the element leaves the page. */
  cleanup(fn: () => void): void
}) => void

/**
 * Adds a `wire:<name>` directive (`comp.directive`), as Livewire's
 * `Livewire.directive`. The built-in names cannot be replaced.
 *
 * @example
 * ```js
 * comp.directive('clipboard', ({ el, directive }) => el.addEventListener('click', () => navigator.clipboard.writeText(directive.value)))
 * ```
 */
export function registerDirective(name: string, handler: CustomDirective): void {
  if (!/^[a-z][a-z0-9-]*$/.test(name) || Object.prototype.hasOwnProperty.call(HANDLERS, name))
    throw new Error(`comp.directive: "${name}" is taken or not a directive name.`)
  HANDLERS[name] = (component, el, directive) => handler({ el, directive, component: component.$wire, cleanup: (fn) => alpine().onElRemoved(el, fn) })
}

/** Starts the `wire:*` directives of one element of a component (any other `wire:<event>` listens for that event). */
export function initDirectives(component: PageComponent, el: Element): void {
  for (const directive of directivesOf(el)) (HANDLERS[directive.name] ?? eventAction)(component, el, directive)
}
