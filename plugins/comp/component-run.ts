import { KilnError, type HttpContext } from '../../core/index.ts'

/** An event a component sends to the page: other components' `@on` listeners and browser listeners hear it. */
export interface Dispatch {
  name: string
  params: Record<string, unknown>
  /** Only components of this name receive it. */
  to?: string
  /** Only this component receives it. */
  self?: true
}

/** What a request collects from a component while it runs. @internal */
export interface ComponentRun {
  id: string
  name: string
  ctx?: HttpContext
  errors: Record<string, string[]>
  dispatches: Dispatch[]
  js: string[]
  skipRender: boolean
  redirect?: string
  /** The redirect is a `wire:navigate` visit. */
  navigate?: boolean
}

// On the instance under a symbol, not in a WeakMap: an entry per component per request costs the garbage
// collector (issue 25). Not enumerable, so a spread or `Object.keys` of the component never sees it.
const RUN = Symbol('kiln.comp.run')

/** @internal the run of a component instance. */
export function runOf(component: object): ComponentRun {
  const run = (component as { [RUN]?: ComponentRun })[RUN]
  if (!run) throw new KilnError(`${component.constructor.name} is used outside of a render or update.`, { code: 'E_COMP_OUTSIDE_LIFECYCLE' })
  return run
}

/** @internal attaches a run to a new instance. */
export function attachRun(component: object, run: ComponentRun): void {
  Object.defineProperty(component, RUN, { value: run, configurable: true })
}

/**
 * Thrown by `validate()` to stop the calls of this request: the errors are
 * in `this.errors`, and the component renders with them. @internal
 */
export class ValidationStop extends Error {
  constructor() {
    super('Validation failed.')
    this.name = 'ValidationStop'
  }
}

/**
 * What validation and form objects need of a component: its messages and
 * its public state. A narrow shape, so those features do not import the
 * component class (and it not them back).
 */
export interface ErrorHolder {
  errors: Record<string, string[]>
  state(): Record<string, unknown>
}
