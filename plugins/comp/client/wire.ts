import { alpine } from './alpine.ts'
import type { CallOptions, PageComponent } from './page-component.ts'
import { intercept } from './interceptors.ts'
import { getPath } from './literal.ts'
import { closestComponent, dispatchEvent } from './registry.ts'

/** Makes one `$wire` property of a component: its value, or the function it calls. */
export type WireProperty = (component: PageComponent, scope: CallOptions) => unknown

const properties: Array<[string, WireProperty]> = []

/**
 * Adds a `$` property to every component's `$wire`, for a feature's
 * browser half (uploads' `$upload`), as Livewire's `wireProperty`. It is
 * made once per `$wire` object; features register theirs before the first
 * component starts (`features/client.ts`).
 *
 * @example
 * ```ts
 * wireProperty('$upload', (component) => (path: string, files: FileList) => upload(component, path, files))
 * ```
 */
export function wireProperty(name: string, make: WireProperty): void {
  properties.push([name, make])
}

/**
 * `$wire`: the component from Alpine expressions. Reading a property gives
 * its reactive value; assigning one changes it in the browser and sends it
 * with the next request; calling anything else calls that server method and
 * resolves when the answer has been applied. Helpers: `$set(path, value,
 * live = true)`, `$toggle(path)`, `$refresh()`, `$commit()`, `$dispatch(name,
 * data)`, `$island(name)` (calls scoped to an island), `$entangle(path,
 * live)`, `$js.<action>()`, `$errors`, `$el`, `$id`, `$refs`, the magics in
 * `magics` (`$watch`, `$on`, `$get`), `$parent`, and what features add with
 * `wireProperty` (`$upload`…). Any other `$` name throws: it is a typo,
 * never a server method.
 */
export function makeWire(component: PageComponent, scope: CallOptions = {}): Record<string, unknown> {
  const helpers: Record<string, unknown> = {
    $set: (path: string, value: unknown, live = true) => component.set(path, value, live),
    $toggle: (path: string, live = true) => component.set(path, !component.get(path), live),
    $refresh: () => component.call('$refresh', [], scope),
    $call: (method: string, ...params: unknown[]) => component.call(method, params, scope),
    $dirty: (path?: string) => (path === undefined ? Object.keys(component.status.dirty).length > 0 : !!component.status.dirty[path]),
    $commit: () => component.commit(),
    $dispatch: (name: string, params: Record<string, unknown> = {}) => dispatchEvent(name, params, component),
    $dispatchSelf: (name: string, params: Record<string, unknown> = {}) => dispatchEvent(name, params, component, { self: true }),
    $dispatchTo: (to: string, name: string, params: Record<string, unknown> = {}) => dispatchEvent(name, params, component, { to }),
    $island: (name: string) => makeWire(component, { ...scope, island: name }),
    $entangle: (path: string, live = false) => entangle(component, path, live),
    $intercept: (action: Parameters<typeof intercept>[1], callback?: Parameters<typeof intercept>[2]) => intercept(component, action, callback),
    ...magics(component),
  }
  for (const [name, make] of properties) helpers[name] = make(component, scope)
  return new Proxy({} as Record<string, unknown>, {
    get(_target, key) {
      if (typeof key !== 'string') return undefined
      if (key in helpers) return helpers[key]
      switch (key) {
        case '$el':
          return component.el
        case '$id':
          return component.id
        case '$name':
          return component.name
        case '$errors':
          return errorBag(component)
        case '$refs':
          return (component.el as unknown as { __compRefs?: Record<string, Element> }).__compRefs ?? {}
        case '$js':
          return jsActions(component)
        case '$parent':
          return closestComponent(component.el.parentElement)?.$wire
        case 'then':
          // Not a thenable: `await $wire` must not call a server method named "then".
          return undefined
      }
      if (key in component.data) return component.data[key]
      if (key.startsWith('$')) throw new Error(`$wire.${key} does not exist. The $ helpers are: ${[...Object.keys(helpers), ...SPECIAL].join(', ')}.`)
      return (...params: unknown[]) => component.call(key, params, scope)
    },
    set(_target, key, value) {
      if (typeof key === 'string') void component.set(key, value, false)
      return true
    },
    has(_target, key) {
      return typeof key === 'string' && (key in component.data || key in helpers)
    },
  })
}

/** The `$` names `$wire` answers besides its helpers. */
const SPECIAL = ['$el', '$id', '$name', '$errors', '$refs', '$js', '$parent']

/**
 * `$wire.$watch(path, (value, old) => …)` (returns a function that stops
 * watching), `$on(event, (detail) => …)` (a component event from the server
 * or the browser; returns a function that stops listening), `$get(path)`.
 */
function magics(component: PageComponent): Record<string, unknown> {
  return {
    $get: (path: string) => component.get(path),
    $watch: (path: string, callback: (value: unknown, old: unknown) => void) => alpine().watch(() => component.get(path), callback),
    $on: (name: string, handler: (detail: unknown) => void) => {
      // Component events are DOM events that bubble to the window (see dispatchEvent).
      const listener = (event: Event) => handler((event as CustomEvent).detail)
      window.addEventListener(name, listener)
      return () => window.removeEventListener(name, listener)
    },
  }
}

/**
 * `$errors` (and `$wire.$errors`): the validation messages by field, with
 * `has(field)`, `first(field)`, `get(field)`, `all()` and `any()`.
 */
export function errorBag(component: PageComponent): Record<string, unknown> {
  const methods = {
    has: (field: string) => (component.errors.bag[field]?.length ?? 0) > 0,
    first: (field: string) => component.errors.bag[field]?.[0] ?? '',
    get: (field: string) => component.errors.bag[field] ?? [],
    all: () => component.errors.bag,
    any: () => Object.keys(component.errors.bag).length > 0,
  }
  return new Proxy(methods as Record<string, unknown>, {
    get: (target, key) => (typeof key === 'string' && key in target ? target[key] : typeof key === 'string' ? component.errors.bag[key] : undefined),
  })
}

/** Runs JavaScript from the server with `$wire` in scope (not with `csp_safe`, which forbids evaluating code). */
export function runJs(component: PageComponent, code: string): unknown {
  if (component.config.cspSafe) {
    console.warn('comp: $js actions need evaluating code, which the CSP-safe build forbids.')
    return undefined
  }

  return new Function('$wire', code)(component.$wire)
}

/** JavaScript actions a component's `@script` defined (`$js.bookmark = () => …`), by component. */
const definedActions = new WeakMap<PageComponent, Map<string, (...params: unknown[]) => unknown>>()

/**
 * A component's JavaScript action: one its `@script` defined, else the code of
 * a `@js()` method; undefined when it has neither.
 *
 * @example
 * ```ts
 * jsAction(component, 'bookmark')?.()
 * ```
 */
export function jsAction(component: PageComponent, name: string): ((...params: unknown[]) => unknown) | undefined {
  const defined = definedActions.get(component)?.get(name)
  if (defined) return defined
  const code = component.memo.js?.[name]
  return code === undefined ? undefined : () => runJs(component, code)
}

function defineJsAction(component: PageComponent, name: unknown, action: unknown): boolean {
  if (typeof name !== 'string' || typeof action !== 'function') return false
  let actions = definedActions.get(component)
  if (!actions) definedActions.set(component, (actions = new Map()))
  actions.set(name, action as (...params: unknown[]) => unknown)
  return true
}

/**
 * `$wire.$js`: a component's JavaScript actions, run in the browser with no
 * request (`$js.clear()`, `wire:click="$js.clear"`). A `@script` defines its
 * own, as functions, so they work under the CSP-safe build:
 * `$js.bookmark = () => …`, or `$js('bookmark', () => …)`.
 */
function jsActions(component: PageComponent): Record<string, unknown> {
  // An arrow function as the target: callable, and without a `prototype` the proxy would have to report.
  return new Proxy((() => undefined) as unknown as Record<string, unknown>, {
    get: (_target, key) => (typeof key === 'string' ? jsAction(component, key) : undefined),
    set: (_target, key, value) => defineJsAction(component, key, value),
    apply: (_target, _this, [name, action]: unknown[]) => void defineJsAction(component, name, action),
  })
}

/**
 * `$wire.$entangle('open')` in `x-data`: an Alpine property and a component
 * property that follow each other; with `live`, each change is sent at once.
 */
function entangle(component: PageComponent, path: string, live: boolean): unknown {
  const Alpine = alpine()
  // Alpine's interceptor gives a factory; the object it makes is what x-data sees and initialises.
  const factory = Alpine.interceptor((_initial, get, set) => {
    Alpine.entangle(
      { get: () => getPath(component.data, path), set: (value) => void component.set(path, value, live) },
      { get, set: set as (value: unknown) => void },
    )
    return getPath(component.data, path)
  }) as unknown as (initial?: unknown) => unknown
  return factory(getPath(component.data, path))
}
