import type { Cast } from './casts.ts'
import { column } from './identifiers.ts'

/** What these helpers read of a model: they take this, not `Model`, so they stay out of model.ts's import circle. */
export interface AttributeHolder {
  $attributes: Record<string, unknown>
  $original: Record<string, unknown>
  setAttribute(key: string, value: unknown): unknown
  readonly modelClass: { toDbValue(key: string, value: unknown, dialect: 'sqlite' | 'pgsql'): unknown }
}

// Module functions, not private methods: mixins (`HasApiTokens(Model)`) export class types, and a declaration file
// cannot name a private member of an anonymous class.
/** A model's values as its columns hold them. @example `dbValues(post, post.getDirty(), 'pgsql')` */
export function dbValues(model: AttributeHolder, values: Record<string, unknown>, dialect: 'sqlite' | 'pgsql'): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(values)) out[column(key)] = model.modelClass.toDbValue(key, value, dialect)
  return out
}

/** After a save: what is stored is now the original. @example `syncOriginal(post)` */
export function syncOriginal(model: AttributeHolder): void {
  model.$original = { ...model.$attributes }
}

/** Attributes read and written as properties (`post.title`). @example `new Proxy(this, ATTRIBUTE_HANDLER)` */
export const ATTRIBUTE_HANDLER: ProxyHandler<AttributeHolder> = {
  get(target, prop, receiver) {
    if (typeof prop === 'symbol' || prop in target) return Reflect.get(target, prop, receiver)
    return target.$attributes[prop]
  },
  set(target, prop, value, receiver) {
    // An own field (`$exists`, a mixin's `$accessToken`) is written straight on the target: Reflect.set with the
    // proxy as receiver would go through this handler's descriptor traps on every write.
    if (Object.prototype.hasOwnProperty.call(target, prop)) {
      ;(target as unknown as Record<PropertyKey, unknown>)[prop] = value
      return true
    }
    if (typeof prop === 'symbol' || prop in target) return Reflect.set(target, prop, value, receiver)
    target.setAttribute(prop, value)
    return true
  },
  has(target, prop) {
    return prop in target || (typeof prop === 'string' && prop in target.$attributes)
  },
  // Attributes look like own properties, so templates (which only read own properties) and spreads see them.
  ownKeys(target) {
    return [...new Set([...Reflect.ownKeys(target), ...Object.keys(target.$attributes)])]
  },
  getOwnPropertyDescriptor(target, prop) {
    if (typeof prop === 'symbol' || Object.prototype.hasOwnProperty.call(target, prop)) return Reflect.getOwnPropertyDescriptor(target, prop)
    if (!Object.prototype.hasOwnProperty.call(target.$attributes, prop)) return undefined
    return { value: target.$attributes[prop], writable: true, enumerable: true, configurable: true }
  },
}

/** The cast of a timestamp column a model did not cast itself. @example `defaultCast(Post, 'created_at') // 'date'` */
export function defaultCast(model: { readonly softDeletes: boolean }, key: string): Cast | undefined {
  if (key === 'created_at' || key === 'updated_at' || (key === 'deleted_at' && model.softDeletes)) return 'date'
  return undefined
}

/** Equal as stored values (dates by time, objects by JSON). @example `sameValue(a, b)` */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime()
  if (typeof a === 'object' && a !== null) return JSON.stringify(a) === JSON.stringify(b)
  return a === b
}

/** `OrderItem` → `order_item`, for foreign key names. @example `snake('OrderItem')` */
export function snake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()
}
