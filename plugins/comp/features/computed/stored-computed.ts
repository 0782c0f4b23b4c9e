import { KilnError } from '../../../../core/index.ts'
import { PERSISTED_PREFIX } from './sweep-persisted.ts'

/** Options of `@computed()`: kept beyond the request, per component instance (`persist`) or for everyone (`cache`). */
export interface ComputedOptions {
  /** Keep the value for this component instance across its updates (Livewire's `persist: true`). */
  persist?: boolean
  /** Keep the value for every instance of every user, under `key` (Livewire's `cache: true`). */
  cache?: boolean
  /**
   * With `cache`: the key in the cache store, so code outside the component can forget it
   * (`Storage.store('cache').removeItem(key)`). Default: `comp:cached:<component name>:<property>`.
   */
  key?: string
  /** How long the value is kept, in seconds (default 3600). */
  seconds?: number
}

/** How one computed property is kept beyond the request. */
export interface StoredComputed {
  mode: 'persist' | 'cache'
  key?: string
  seconds: number
}

/** As Livewire: an hour. */
const DEFAULT_SECONDS = 3600

/**
 * The options of `@computed()` checked: undefined for a computed kept for the request only. A mistake is a
 * `KilnError` when the class loads, not a surprise in production.
 *
 * @example
 * ```ts
 * checkedOptions({ cache: true, seconds: 60 }) // { mode: 'cache', seconds: 60 }
 * ```
 */
export function checkedOptions(options: ComputedOptions): StoredComputed | undefined {
  const { persist, cache, key, seconds } = options
  const fail = (message: string) => new KilnError(`@computed(): ${message}`, { code: 'E_COMP_COMPUTED_OPTIONS' })
  if (persist && cache) throw fail('choose persist (one component) or cache (everyone), not both.')
  if (key !== undefined && !cache) throw fail('a key is for cache: true (a persisted value is kept per component instance).')
  if (key !== undefined && (typeof key !== 'string' || key.trim() === '' || key.length > 200))
    throw fail(`the key must be text of 1 to 200 characters, not ${JSON.stringify(key)}.`)
  if (seconds !== undefined && !(typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0))
    throw fail(`seconds must be a positive number, not ${JSON.stringify(seconds)}.`)
  if (seconds !== undefined && !persist && !cache) throw fail('seconds is for persist: true or cache: true.')
  if (!persist && !cache) return undefined
  return { mode: persist ? 'persist' : 'cache', ...(key !== undefined ? { key } : {}), seconds: seconds ?? DEFAULT_SECONDS }
}

const declared = new WeakMap<Function, Map<string, StoredComputed>>()
const resolved = new WeakMap<Function, ReadonlyMap<string, StoredComputed>>()

/**
 * Records that a class's computed property is persisted or cached. @internal used by `@computed()`.
 *
 * @example
 * ```ts
 * declareStored(Stats, 'total', { mode: 'cache', seconds: 3600 })
 * ```
 */
export function declareStored(Class: Function, name: string, stored: StoredComputed): void {
  let own = declared.get(Class)
  if (!own) declared.set(Class, (own = new Map()))
  own.set(name, stored)
}

/**
 * The persisted and cached computed properties of a class, its parents' included (a child's declaration wins); asked
 * once an instance exists, so standard decorators have recorded theirs.
 *
 * @example
 * ```ts
 * storedComputed(Stats) // Map { 'total' => { mode: 'cache', seconds: 3600 } }
 * ```
 */
export function storedComputed(Class: Function): ReadonlyMap<string, StoredComputed> {
  const cached = resolved.get(Class)
  if (cached) return cached
  const chain: Function[] = []
  for (let current: Function | null = Class; current && current !== Function.prototype; current = Object.getPrototypeOf(current)) chain.unshift(current)
  const out = new Map<string, StoredComputed>()
  for (const current of chain) for (const [name, stored] of declared.get(current) ?? []) out.set(name, stored)
  // A standard decorator records when an instance is made: the hooks ask only once the component exists.
  resolved.set(Class, out)
  return out
}

/**
 * The key of a stored computed value in the cache store: per component instance for `persist`, the given key or
 * per component name for `cache`.
 *
 * @example
 * ```ts
 * storeKey({ mode: 'cache', seconds: 60 }, 'stats', 'x1', 'total') // 'comp:cached:stats:total'
 * ```
 */
export function storeKey(stored: StoredComputed, component: string, id: string, name: string): string {
  if (stored.mode === 'persist') return `${PERSISTED_PREFIX}:${id}:${name}`
  return stored.key ?? `comp:cached:${component}:${name}`
}
