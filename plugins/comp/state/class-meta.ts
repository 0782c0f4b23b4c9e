import type { PropertyKind } from './property-kinds.ts'

/** What decorators record about one component class. */
interface OwnMeta {
  locked: Set<string>
  computed: Set<string>
  js: Set<string>
  listeners: Map<string, string[]>
  /** Declared kinds of properties (`@typed(Date)`, `@upload(...)`): what the browser may put in them. */
  kinds: Map<string, PropertyKind>
}

/** A class's own records plus everything its parents declared. */
export interface ComponentMeta {
  locked: ReadonlySet<string>
  computed: ReadonlySet<string>
  js: ReadonlySet<string>
  /** Event name → methods, in declaration order, parents first. */
  listeners: ReadonlyMap<string, readonly string[]>
  /** Property → its declared kind; a child class's declaration wins. */
  kinds: ReadonlyMap<string, PropertyKind>
}

const own = new WeakMap<Function, OwnMeta>()
const merged = new WeakMap<Function, ComponentMeta>()

/**
 * The decorator records of one class (created on first use). @internal
 *
 * @example
 * ```ts
 * ownMeta(Counter).locked.add('id')
 * ```
 */
export function ownMeta(Class: Function): OwnMeta {
  let meta = own.get(Class)
  if (!meta) own.set(Class, (meta = { locked: new Set(), computed: new Set(), js: new Set(), listeners: new Map(), kinds: new Map() }))
  return meta
}

/**
 * What a component class and its parents declared with decorators, merged
 * once per class.
 *
 * @example
 * ```ts
 * metaOf(Counter).locked.has('id')
 * ```
 */
export function metaOf(Class: Function): ComponentMeta {
  const cached = merged.get(Class)
  if (cached) return cached
  const chain: Function[] = []
  for (let current: Function | null = Class; current && current !== Function.prototype; current = Object.getPrototypeOf(current)) chain.unshift(current)
  const result = {
    locked: new Set<string>(),
    computed: new Set<string>(),
    js: new Set<string>(),
    listeners: new Map<string, string[]>(),
    kinds: new Map<string, PropertyKind>(),
  }
  for (const Current of chain) {
    const meta = own.get(Current)
    if (!meta) continue
    for (const name of meta.locked) result.locked.add(name)
    for (const name of meta.computed) result.computed.add(name)
    for (const name of meta.js) result.js.add(name)
    for (const [name, kind] of meta.kinds) result.kinds.set(name, kind)
    for (const [event, methods] of meta.listeners)
      result.listeners.set(event, [...(result.listeners.get(event) ?? []), ...methods.filter((m) => !result.listeners.get(event)?.includes(m))])
  }
  merged.set(Class, result)
  return result
}

/**
 * A static setting gathered along the class chain: a mixin's
 * `queryString = ['page']` and the component's own `['search']` both count.
 *
 * @example
 * ```ts
 * collectStatic<string[]>(Posts, 'queryString') // ['page', 'search']
 * ```
 */
export function collectStatic<T extends unknown[]>(Class: Function, key: string): T {
  const out: unknown[] = []
  for (let current: Function | null = Class; current && current !== Function.prototype; current = Object.getPrototypeOf(current)) {
    if (!Object.prototype.hasOwnProperty.call(current, key)) continue
    const value = (current as unknown as Record<string, unknown>)[key]
    if (Array.isArray(value)) for (const item of value) if (!out.includes(item)) out.push(item)
  }
  return out as T
}

const frameworkActions = new WeakMap<Function, ReadonlySet<string>>()

/**
 * Marks a class Kiln itself puts into a component's chain (a mixin such as
 * `WithPagination`): its methods are framework internals, never callable
 * from the browser, except the `actions` it names. @internal
 *
 * @example
 * ```ts
 * frameworkClass(Paginates, ['gotoPage', 'nextPage', 'previousPage'])
 * ```
 */
export function frameworkClass(Class: Function, actions: string[] = []): void {
  frameworkActions.set(Class, new Set(actions))
}

/**
 * The browser actions of a framework class, or undefined for an app's own class.
 *
 * @example
 * ```ts
 * frameworkActionsOf(Paginates)?.has('gotoPage') // true
 * ```
 */
export function frameworkActionsOf(Class: Function): ReadonlySet<string> | undefined {
  return frameworkActions.get(Class)
}
