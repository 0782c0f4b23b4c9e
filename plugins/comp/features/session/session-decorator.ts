import { createHash } from 'node:crypto'
import { FORBIDDEN_KEYS, KilnError } from '../../../../core/index.ts'
import { record } from '../../state/decorators.ts'

/** How a property is kept in the session (`@session({...})`). */
export interface SessionOptions {
  /**
   * The name it is kept under, when it is not the property's name; the component's name is always part of the key.
   * A function of the component makes one key per value (`(posts) => 'search-' + posts.authorId`), read
   * after `mount()`; such keys are kept under the property's name too.
   */
  key?: string | ((component: never) => string | number)
}

/** One property kept in the session, with its key in the session. */
export interface SessionProperty {
  property: string
  /** `comp:<component name>:<key>` (`comp:<component name>:<property>:<key>` for a key function): two components never share a value. */
  sessionKey: (component: object) => string
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
 *   authorId = 0
 *   @session({ key: (posts: Posts) => `sort-${posts.authorId}` }) sort = 'new'
 * }
 * ```
 */
export function session(options: SessionOptions = {}) {
  if (typeof options.key !== 'function' && options.key !== undefined) checkKey(options.key)
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
 * sessionProperties(Posts, 'posts')[0]!.sessionKey(posts) // 'comp:posts:search'
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
    if (typeof key === 'function') {
      // Under the property's name and a colon, which no fixed key has: text the browser set cannot reach another property's value.
      out.push({ property, sessionKey: (self) => `comp:${component}:${property}:${dynamicKey((key as (component: object) => unknown)(self))}` })
      continue
    }
    if (keys.has(key)) throw new KilnError(`${Class.name} keeps two properties in the session as "${key}".`, { code: 'E_COMP_SESSION_KEY' })
    keys.add(key)
    out.push({ property, sessionKey: () => `comp:${component}:${key}` })
  }
  return out
}

/**
 * The part of a key a function made from the component's state, which the browser may have set: any text is safe
 * after the component's name, and a long one is kept as its hash, so the session's keys stay short.
 */
function dynamicKey(value: unknown): string {
  const text = String(value)
  return text.length <= 100 ? text : `#${createHash('sha256').update(text).digest('base64url')}`
}

function checkKey(key: unknown): string {
  if (typeof key !== 'string' || !/^[\w.-]{1,100}$/.test(key) || FORBIDDEN_KEYS.has(key))
    throw new KilnError(
      `A session key is 1 to 100 letters, digits, ".", "_" or "-", other than __proto__, constructor and prototype, not ${JSON.stringify(key).slice(0, 120)}.`,
      {
        code: 'E_COMP_SESSION_KEY',
      },
    )
  return key
}
