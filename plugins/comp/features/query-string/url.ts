import { FORBIDDEN_KEYS, KilnError } from '../../../../core/index.ts'
import { collectStatic } from '../../state/class-meta.ts'
import { record } from '../../state/decorators.ts'

/** How a property is kept in the URL's query string (`@url({...})`). */
export interface UrlOptions {
  /** The query key, when it is not the property's name: `@url({ as: 'q' }) search = ''` gives `?q=…`. */
  as?: string
  /** Each change pushes a browser history entry (back and forward restore the value); by default the entry is replaced. */
  history?: boolean
  /** The key stays in the URL even when the value is the initial one or empty (`?q=`). */
  keep?: boolean
  /** The value that removes the key from the URL, instead of the initial value and empty ones. */
  except?: unknown
}

/** One property kept in the URL, its options worked out. */
export interface UrlProperty {
  property: string
  key: string
  history: boolean
  keep: boolean
  /** Present when `except` was given (its value may be `undefined`-free JSON, `''`, `null`…). */
  except?: { value: unknown }
}

const declared = new WeakMap<Function, Map<string, UrlOptions>>()
const resolved = new WeakMap<Function, readonly UrlProperty[]>()

/**
 * Keeps a property in the URL's query string, as `static queryString`
 * does, with options: `as` (the query key), `history` (push history
 * entries), `keep` (never drop the key) and `except` (the value that drops
 * it). The property starts from the URL on the first render, and back and
 * forward restore it.
 *
 * @example
 * ```ts
 * import { Component, url } from 'kiln-framework/comp'
 *
 * class Search extends Component {
 *   @url({ as: 'q', history: true, except: '' }) search = ''
 * }
 * ```
 */
export function url(options: UrlOptions = {}) {
  if (options.as !== undefined) checkKey(options.as)
  return (...args: any[]): any => {
    record(args, (Class, name) => {
      let own = declared.get(Class)
      if (!own) declared.set(Class, (own = new Map()))
      own.set(name, options)
    })
  }
}

/**
 * The properties a component keeps in the URL: `static queryString` names
 * (a parent's too) and `@url()` properties (a child's options win), each
 * with its key and options. Worked out once per class.
 *
 * @example
 * ```ts
 * urlProperties(Search) // [{ property: 'search', key: 'q', history: true, keep: false, except: { value: '' } }]
 * ```
 */
export function urlProperties(Class: Function): readonly UrlProperty[] {
  const cached = resolved.get(Class)
  if (cached) return cached
  const options = new Map<string, UrlOptions>()
  for (const property of collectStatic<string[]>(Class, 'queryString')) options.set(property, {})
  const chain: Function[] = []
  for (let current: Function | null = Class; current && current !== Function.prototype; current = Object.getPrototypeOf(current)) chain.unshift(current)
  for (const current of chain) for (const [property, own] of declared.get(current) ?? []) options.set(property, own)
  const out: UrlProperty[] = []
  const keys = new Set<string>()
  for (const [property, { as, history, keep, ...rest }] of options) {
    const key = as ?? property
    checkKey(key)
    if (keys.has(key)) throw new KilnError(`${Class.name} keeps two properties in the URL as "${key}".`, { code: 'E_COMP_URL_KEY' })
    keys.add(key)
    out.push({ property, key, history: history === true, keep: keep === true, ...('except' in rest ? { except: { value: rest.except } } : {}) })
  }
  resolved.set(Class, out)
  return out
}

function checkKey(key: unknown): void {
  if (typeof key !== 'string' || key === '' || key.length > 100 || FORBIDDEN_KEYS.has(key))
    throw new KilnError(`A query key must be a name of 1 to 100 characters other than __proto__, constructor and prototype, not ${JSON.stringify(key)}.`, {
      code: 'E_COMP_URL_KEY',
    })
}
