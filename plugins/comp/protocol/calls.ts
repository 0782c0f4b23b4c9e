import { HttpException } from '../../../core/index.ts'
import { frameworkActionsOf, metaOf } from '../state/class-meta.ts'
import { Component } from '../component.ts'
import type { ComponentClass } from '../registry/registry.ts'

/** Methods the framework calls itself: never from the browser. */
const HOOKS = new Set([
  'constructor',
  'mount',
  'hydrate',
  'booted',
  'updating',
  'updated',
  'rendering',
  'rendered',
  'dehydrate',
  'render',
  'with',
  'placeholder',
])
const NAME = /^[A-Za-z$][\w$]{0,99}$/

/**
 * True when the browser may call `method` on a component of this class: a
 * method (not a getter) declared on the app's own classes between the
 * component and `Component`, whose name is not a lifecycle hook, an
 * `updated...` / `updating...` hook, private (`#x` is never reachable, `_x`
 * is refused), or a `@js()` action. Methods of `Component` itself
 * (`validate`, `dispatch`, `reset`...) and of Kiln's mixins
 * (`WithPagination`'s `paginate`, `resetPage`) are out of reach, but for
 * the actions a mixin names (`gotoPage`, `nextPage`, `previousPage`).
 *
 * TypeScript's `private` is erased before the code runs, so it does not
 * hide a method: write `#helper()`. Kiln warns at boot in development
 * about `private` methods on a component.
 *
 * @example
 * ```ts
 * callable(Counter, 'increment') // true
 * callable(Counter, 'mount')     // false
 * ```
 */
export function callable(Class: ComponentClass, method: string): boolean {
  if (!NAME.test(method) || HOOKS.has(method) || /^updat(?:ed|ing)[A-Z]/.test(method) || metaOf(Class).js.has(method)) return false
  for (let proto: object | null = Class.prototype; proto && proto !== Component.prototype; proto = Object.getPrototypeOf(proto)) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, method)
    if (!descriptor) continue
    const framework = frameworkActionsOf((proto as { constructor: Function }).constructor)
    if (framework && !framework.has(method)) return false
    return typeof descriptor.value === 'function'
  }
  return false
}

/**
 * Calls a public method with the browser's parameters, or refuses with 403
 * naming the method. Returns what the method returned: a promise from an
 * async method, to be awaited (a synchronous action makes no promise).
 *
 * @example
 * ```ts
 * const called = callMethod(component, Counter, 'add', [5])
 * if (isPromiseLike(called)) await called
 * ```
 */
export function callMethod(component: Component, Class: ComponentClass, method: string, params: unknown[]): unknown {
  if (!callable(Class, method)) throw new HttpException(403, `The method "${method.slice(0, 100)}" cannot be called on ${Class.name}.`)
  return (component as unknown as Record<string, (...args: unknown[]) => unknown>)[method]!(...params)
}
