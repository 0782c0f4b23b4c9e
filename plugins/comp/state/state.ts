import {
  KilnError,
  Model,
  ModelNotFoundError,
  modelByMorphName,
  type Application,
  type HttpContext,
  type ModelClass,
  FORBIDDEN_KEYS,
} from '../../../core/index.ts'

/** How a value that is not plain JSON travels in a snapshot: the kernel's types, or a feature's (`upload`, `form`). */
export type TypeDescriptor = KernelType | { t: string }

type KernelType = { t: 'date' } | { t: 'bigint' } | { t: 'model'; class: string; key: unknown } | { t: 'models'; class: string; keys: unknown[] }

/** A path into the state (property, then keys and indexes) and how the value there is typed. */
export type TypedPath = [Array<string | number>, TypeDescriptor]

/** State as it goes on the wire: plain JSON, plus where the typed values are. */
export interface Dehydrated {
  data: Record<string, unknown>
  types: TypedPath[]
}

/** What typed values are brought back with: the app, and the request (whose session an uploaded file belongs to). */
export interface StateContext {
  readonly app: Application
  readonly ctx?: HttpContext
}

/**
 * A value of a feature's class that a component's state may hold (a form
 * object, an uploaded file): how it goes into a snapshot and comes back.
 * `t` names it in the snapshot's `types`.
 *
 * @example
 * ```ts
 * addStateType({ t: 'money', holds: (v) => v instanceof Money, dehydrate: (v, path, types) => (types.push([path, { t: 'money' }]), String(v)) })
 * ```
 */
export interface StateType {
  readonly t: string
  /** True for a value of this type. */
  holds(value: unknown): boolean
  /**
   * The value as JSON, its path recorded in `types`; `inner` turns a value
   * inside it into JSON with the same checks, `fail(what)` is the error
   * for a value the state cannot keep.
   */
  dehydrate(
    value: unknown,
    path: Array<string | number>,
    types: TypedPath[],
    inner: (value: unknown, path: Array<string | number>) => unknown,
    fail: (what: string) => Error,
  ): unknown
  /** The value again from its JSON; without it the JSON stays as it is (the feature's hydrate hook puts it back). */
  hydrate?(json: unknown, type: TypeDescriptor, context: StateContext): unknown
  /** Why the browser may not replace a value of this type with an update (403), when it may not. */
  readonly refusedUpdate?: string
  /** A value with fields of its own (a form object): the fields the browser may set one by one (`form.title`), and the class that declares their kinds. */
  fields?(value: unknown): { names: string[]; declaredBy: Function }
}

const stateTypes: StateType[] = []

/**
 * Lets a component's state hold values of a feature's class.
 *
 * @example
 * ```ts
 * addStateType(formState)
 * ```
 */
export function addStateType(type: StateType): void {
  if (!stateTypes.includes(type)) stateTypes.push(type)
}

/**
 * The feature's state type of a value, if it has one.
 *
 * @example
 * ```ts
 * stateTypeOf(form)?.fields?.(form) // { names: ['title'], declaredBy: PostForm }
 * ```
 */
export function stateTypeOf(value: unknown): StateType | undefined {
  if (value === null || typeof value !== 'object') return undefined
  for (const type of stateTypes) if (type.holds(value)) return type
  return undefined
}

/**
 * The public state of a component: own enumerable fields that are not
 * functions and not marked private with a leading `_` (`#fields` are never
 * own properties).
 *
 * @example
 * ```ts
 * publicProperties(counter) // ['count']
 * ```
 */
export function publicProperties(component: object): string[] {
  return Object.keys(component).filter((key) => !key.startsWith('_') && typeof (component as Record<string, unknown>)[key] !== 'function')
}

/**
 * Turns state into JSON for the snapshot. Dates, bigints, models, lists of
 * models and uploaded files are recorded in `types` so they come back typed.
 * A model is its class and key only (the data holds the key; the model is
 * loaded again on the next request), so no column of it reaches the page.
 * Anything else that is not plain JSON is a clear error naming the property.
 *
 * @example
 * ```ts
 * dehydrate({ when: new Date(0) }) // { data: { when: '1970-01-01T00:00:00.000Z' }, types: [[['when'], { t: 'date' }]] }
 * ```
 */
export function dehydrate(values: Record<string, unknown>, component = 'component'): Dehydrated {
  const types: TypedPath[] = []
  const data: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(values)) data[key] = toJson(value, [key], types, component)
  return { data, types }
}

function toJson(value: unknown, path: Array<string | number>, types: TypedPath[], component: string): unknown {
  if (value === undefined || value === null || typeof value === 'string' || typeof value === 'boolean') return value ?? null
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw stateError(component, path, `the number ${value}`)
    return value
  }
  if (typeof value === 'bigint') return (types.push([path, { t: 'bigint' }]), value.toString())
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw stateError(component, path, 'an invalid Date')
    return (types.push([path, { t: 'date' }]), value.toISOString())
  }
  if (value instanceof Model) return (types.push([path, { t: 'model', class: morphName(value), key: value.getKey() }]), keyJson(value))
  const type = stateTypeOf(value)
  if (type)
    return type.dehydrate(
      value,
      path,
      types,
      (inner, at) => toJson(inner, at, types, component),
      (what) => stateError(component, path, what),
    )
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every((item) => item instanceof Model) && new Set(value.map((item) => morphName(item as Model))).size === 1) {
      types.push([path, { t: 'models', class: morphName(value[0] as Model), keys: value.map((item) => (item as Model).getKey()) }])
      return value.map((item) => keyJson(item as Model))
    }
    return value.map((item, index) => toJson(item, [...path, index], types, component))
  }
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value)
    if (proto !== Object.prototype && proto !== null) throw stateError(component, path, `a ${(value as object).constructor?.name ?? 'class'} instance`)
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) out[key] = toJson(item, [...path, key], types, component)
    return out
  }
  throw stateError(component, path, `a ${typeof value}`)
}

/**
 * Rebuilds typed state from a snapshot: dates, bigints, models (loaded again
 * by key; a model that no longer exists is a 404) and features' values
 * (uploaded files).
 *
 * @example
 * ```ts
 * const values = await hydrate(memo.data, memo.types, { app, ctx })
 * ```
 */
export function hydrate(
  data: Record<string, unknown>,
  types: TypedPath[] = [],
  context: StateContext,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  // A copy, so what the browser sent stays as it was (the answer lists what changed against it); only objects
  // and lists need one, and a snapshot is mostly numbers and text.
  const values: Record<string, unknown> = {}
  for (const key of Object.keys(data)) {
    if (FORBIDDEN_KEYS.has(key)) continue
    const value = data[key]
    values[key] = value !== null && typeof value === 'object' ? structuredClone(value) : value
  }
  // Plain JSON state (the common case) comes back without a promise.
  return types.length === 0 ? values : typed(values, types, context)
}

/** Puts the typed values back: dates, bigints, models loaded again, features' values. */
async function typed(values: Record<string, unknown>, types: TypedPath[], context: StateContext): Promise<Record<string, unknown>> {
  for (const [path, descriptor] of types) {
    const current = read(values, path)
    const type = descriptor as KernelType
    let value: unknown
    switch (type.t) {
      case 'date':
        value = new Date(String(current))
        break
      case 'bigint':
        value = BigInt(String(current))
        break
      case 'model':
        value = await modelClass(type.class).findOrFail(type.key)
        break
      case 'models': {
        const Class = modelClass(type.class)
        const found = await Class.query().whereIn(Class.primaryKey, type.keys).get()
        const byKey = new Map(found.map((model) => [String(model.getKey()), model]))
        value = type.keys.map((key) => {
          const model = byKey.get(String(key))
          if (!model) throw new ModelNotFoundError(Class.name, key)
          return model
        })
        break
      }
      default: {
        const feature = stateTypes.find((known) => known.t === descriptor.t)
        // A type without hydrate (a form object) stays JSON: its feature puts it back (the component's initial value says which class).
        if (!feature?.hydrate) continue
        value = await feature.hydrate(current, descriptor, context)
      }
    }
    write(values, path, value)
  }
  return values
}

/** A model's key as JSON (a bigint key as text). */
function keyJson(model: Model): unknown {
  const key = model.getKey()
  return typeof key === 'bigint' ? key.toString() : (key ?? null)
}

function modelClass(name: string): ModelClass<Model> {
  const Class = modelByMorphName(name)
  if (!Class) throw new KilnError(`A component's state holds a ${name} model, but no model of that name is registered: keep models in app/models.`)
  return Class as unknown as ModelClass<Model>
}

function morphName(model: Model): string {
  const Class = model.modelClass as typeof Model
  Class.registerMorph()
  return Class.morphName ?? Class.name
}

function read(root: unknown, path: Array<string | number>): unknown {
  let current = root
  for (const key of path) current = current === null || typeof current !== 'object' ? undefined : (current as Record<string | number, unknown>)[key]
  return current
}

function write(root: Record<string, unknown>, path: Array<string | number>, value: unknown): void {
  if (path.some((key) => FORBIDDEN_KEYS.has(String(key)))) return
  let current: Record<string | number, unknown> = root
  for (const key of path.slice(0, -1)) current = current[key] as Record<string | number, unknown>
  current[path.at(-1)!] = value
}

function stateError(component: string, path: Array<string | number>, what: string): KilnError {
  return new KilnError(`${component}.${path.join('.')} holds ${what}, which a component cannot keep in its state.`, {
    hint: 'Keep plain data, dates, models or uploaded files in public properties; mark other fields private (#field or _field).',
  })
}
