import { FORBIDDEN_KEYS, KilnError } from '../../../../core/index.ts'
import { record } from '../../state/decorators.ts'

/** How a property is kept in the session (`@session({...})`). */
export interface SessionOptions {
  /** The name it is kept under, when it is not the property's name; the component's name is always part of the key. */
  key?: string
}

/** One property kept in the session, with its key in the session. */
export interface SessionProperty {
  property: string
  /** `comp:<component name>:<key>`: two components never share a value. */
  sessionKey: string
}

const declared = new WeakMap<Function, Map<string, SessionOptions>>()

/**
 * Keeps a property in the user's session (Livewire's `#[Session]`): on
 * each first render it starts from the value kept for this component's
 * name and key, after `mount()`, and an update that changes it keeps the
 * new value. A search box remembered across page loads, for this user only.
 *
 * @example
 * ```ts
 * import { Component, session } from 'kiln-framework/comp'
 *
 * class Posts extends Component {
 *   @session() search = ''
 *   @session({ key: 'per-page' }) perPage = 10
 * }
 * ```
 */
export function session(options: SessionOptions = {}) {
  if (options.key !== undefined) checkKey(options.key)
  return (...args: any[]): any => {
    record(args, (Class, name) => {
      let own = declared.get(Class)
      if (!own) declared.set(Class, (own = new Map()))
      own.set(name, options)
    })
  }
}

/**
 * The properties a component keeps in the session (a parent's too; a child's options win), each with its key in the
 * session, under the component's name so that two components never read each other's.
 *
 * @example
 * ```ts
 * sessionProperties(Posts, 'posts') // [{ property: 'search', sessionKey: 'comp:posts:search' }]
 * ```
 */
export function sessionProperties(Class: Function, component: string): readonly SessionProperty[] {
  const options = new Map<string, SessionOptions>()
  const chain: Function[] = []
  for (let current: Function | null = Class; current && current !== Function.prototype; current = Object.getPrototypeOf(current)) chain.unshift(current)
  for (const current of chain) for (const [property, own] of declared.get(current) ?? []) options.set(property, own)
  const out: SessionProperty[] = []
  const keys = new Set<string>()
  for (const [property, { key = property }] of options) {
    if (keys.has(key)) throw new KilnError(`${Class.name} keeps two properties in the session as "${key}".`, { code: 'E_COMP_SESSION_KEY' })
    keys.add(key)
    out.push({ property, sessionKey: `comp:${component}:${key}` })
  }
  return out
}

function checkKey(key: unknown): void {
  if (typeof key !== 'string' || key === '' || key.length > 100 || FORBIDDEN_KEYS.has(key))
    throw new KilnError(`A session key must be a name of 1 to 100 characters other than __proto__, constructor and prototype, not ${JSON.stringify(key)}.`, {
      code: 'E_COMP_SESSION_KEY',
    })
}
