import { FORBIDDEN_KEYS, HttpException, Model } from '../../../core/index.ts'
import { metaOf } from './class-meta.ts'
import type { Component } from '../component.ts'
import type { ComponentClass } from '../registry/registry.ts'
import { publicProperties, stateTypeOf, type StateContext } from './state.ts'
import { kindRule, type PropertyKind } from './property-kinds.ts'

const SEGMENT = /^(?:[A-Za-z_$][\w$-]*|\d{1,9})$/

/** What an update needs besides the component. */
export interface UpdateContext extends StateContext {
  Class: ComponentClass
  maxDepth: number
}

const afterUpdates: Array<(component: Component, path: string) => void> = []

/**
 * Runs `step` after each update from the browser is applied (validation's
 * `@validate({ onUpdate })`), with the path it set.
 *
 * @example
 * ```ts
 * addAfterUpdate((component, path) => validateOnUpdate(component, path))
 * ```
 */
export function addAfterUpdate(step: (component: Component, path: string) => void): void {
  if (!afterUpdates.includes(step)) afterUpdates.push(step)
}

/**
 * Applies one `[path, value]` update from the browser, with every check a
 * value from the network needs:
 *
 * - the path is a public property (`title`) or a path inside one
 *   (`form.address.street`, `items.2.done`), no deeper than `max_path_depth`,
 *   never through `__proto__`, `constructor` or `prototype` (400);
 * - an unknown property is 422; anything holding a model is 403 (models are loaded by key, never written by the browser);
 * - a typed value keeps its type: numbers take numbers (or numeric text, as
 *   inputs send it; empty text clears to null), booleans take booleans, dates
 *   take date strings, lists take lists, objects take objects; anything else
 *   is 422. A feature's kind takes what its rule accepts (upload references
 *   become the files they stand for).
 *
 * `updating(path, value)` and `updating<Property>(value)`, then
 * `updated(path, value)` and `updated<Property>(value)` run around the
 * change (the property hooks for a whole property, not a path inside it).
 *
 * @example
 * ```ts
 * await applyUpdate(component, 'form.email', 'ada@example.com', context)
 * ```
 */
export async function applyUpdate(component: Component, path: string, value: unknown, context: UpdateContext): Promise<void> {
  const segments = path.split('.')
  if (segments.length > context.maxDepth) throw new HttpException(422, `The update path "${path.slice(0, 100)}" is deeper than ${context.maxDepth} segments.`)
  if (segments.some((segment) => FORBIDDEN_KEYS.has(segment))) throw new HttpException(400, `The update path "${path.slice(0, 100)}" is not allowed.`)
  if (!segments.every((segment) => SEGMENT.test(segment))) throw new HttpException(422, `"${path.slice(0, 100)}" is not a property path.`)
  const [root, ...rest] = segments as [string, ...string[]]
  if (!publicProperties(component).includes(root)) throw new HttpException(422, `${context.Class.name} has no public property "${root}".`)

  const self = component as unknown as Record<string, unknown>
  // A value with fields of its own (a form object): set field by field, each typed by its class's declarations.
  const fields = stateTypeOf(self[root])?.fields?.(self[root])
  const form = fields ? (self[root] as object) : undefined
  if (form && rest.length === 0) return updateFields(component, path, value, context)
  // Only its declared fields are set from the browser, by name (`form.title`).
  if (form && !fields!.names.includes(rest[0]!)) throw new HttpException(422, `${form.constructor.name} has no field "${rest[0]!.slice(0, 100)}".`)
  let container: Record<string, unknown> = self
  for (const segment of segments.slice(0, -1)) {
    const next = container[segment]
    refuseModels(next, root)
    if (next !== form && (next === null || typeof next !== 'object' || (!Array.isArray(next) && Object.getPrototypeOf(next) !== Object.prototype))) {
      throw new HttpException(422, `"${path.slice(0, 100)}" does not lead to a property that can be set.`)
    }
    container = next as Record<string, unknown>
  }
  const leaf = segments.at(-1)!
  if (Array.isArray(container) && !/^\d+$/.test(leaf)) throw new HttpException(422, `"${path.slice(0, 100)}": a list is indexed by numbers.`)
  const current = Object.prototype.hasOwnProperty.call(container, leaf) ? container[leaf] : undefined
  refuseModels(current, root)
  // A form's field is typed by the form's own declarations, as a property is by the component's.
  const kind = fields ? metaOf(fields.declaredBy).kinds.get(rest[0]!) : metaOf(context.Class).kinds.get(root)
  const depth = fields ? rest.length - 1 : rest.length
  // A declared kind speaks for the whole property; inside a plain object or list, any JSON value fits.
  const next = await coerce(current, value, path, context, depth === 0 ? (kind ?? 'undeclared') : kind && kindRule(kind.kind)?.item?.(kind))

  const suffix = `${root[0]!.toUpperCase()}${root.slice(1)}`
  await component.updating?.(path, next)
  if (rest.length === 0) await propertyHook(component, `updating${suffix}`, next)
  container[leaf] = next
  await component.updated?.(path, next)
  if (rest.length === 0) await propertyHook(component, `updated${suffix}`, next)
  for (const step of afterUpdates) step(component, path)
}

/** A whole form object from the browser: each key is an update of that field (`form.title`), with its checks. */
async function updateFields(component: Component, path: string, value: unknown, context: UpdateContext): Promise<void> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new HttpException(422, `"${path.slice(0, 100)}" is a form object: it takes an object of its fields.`)
  for (const [field, fieldValue] of Object.entries(value)) await applyUpdate(component, `${path}.${field}`, fieldValue, context)
}

/** `updatingTitle(value)` / `updatedTitle(value)`, when the component has it. */
async function propertyHook(component: Component, name: string, value: unknown): Promise<void> {
  const hook = (component as unknown as Record<string, unknown>)[name]
  if (typeof hook === 'function') await (hook as (value: unknown) => unknown).call(component, value)
}

function refuseModels(value: unknown, root: string): void {
  if (value instanceof Model || (Array.isArray(value) && value.some((item) => item instanceof Model))) {
    throw new HttpException(
      403,
      `The property "${root}" holds a model: models cannot be changed from the browser (bind to plain properties and save them in a method).`,
    )
  }
}

/**
 * A value from the browser (or the URL) in the type of the value it
 * replaces; 422 when it does not fit. A property that is `null` now is
 * typed by its declaration (`kind`: `@typed(...)`, `@upload(...)`); an
 * undeclared one (`'undeclared'`) takes only JSON primitives. Upload
 * references are files only in `@upload` properties. @internal
 *
 * @example
 * ```ts
 * await coerce(0, '5', 'count', context) // 5
 * ```
 */
export async function coerce(current: unknown, value: unknown, path: string, context: StateContext, kind?: PropertyKind | 'undeclared'): Promise<unknown> {
  const refuse = (expected: string) => new HttpException(422, `"${path.slice(0, 100)}" takes ${expected}.`)
  const rule = typeof kind === 'object' ? kindRule(kind.kind) : undefined
  if (rule) return rule.coerce(value, path, kind as PropertyKind, context)
  if (current === undefined || current === null)
    return typeof kind === 'object' ? byKind(kind, value, path) : kind === 'undeclared' ? primitive(value, path) : value
  const refused = stateTypeOf(current)?.refusedUpdate
  if (refused) throw new HttpException(403, `"${path.slice(0, 100)}" ${refused}`)
  if (typeof current === 'number') {
    if (typeof value === 'number' && Number.isFinite(value)) return value
    if (typeof value === 'string' && value.trim() === '') return null
    if (typeof value === 'string' && /^-?\d+(?:\.\d+)?$/.test(value.trim())) return Number(value.trim())
    throw refuse('a number')
  }
  if (typeof current === 'boolean') {
    if (typeof value === 'boolean') return value
    if (value === 'true' || value === '1' || value === 'on' || value === 1) return true
    if (value === 'false' || value === '0' || value === '' || value === 0) return false
    throw refuse('true or false')
  }
  if (typeof current === 'string') {
    if (typeof value === 'string') return value
    if (typeof value === 'number') return String(value)
    if (value === null) return ''
    throw refuse('text')
  }
  if (typeof current === 'bigint') {
    if ((typeof value === 'string' || typeof value === 'number') && /^-?\d+$/.test(String(value))) return BigInt(value)
    throw refuse('a whole number')
  }
  if (current instanceof Date) {
    const date = typeof value === 'string' || typeof value === 'number' ? new Date(value) : undefined
    if (value === null || value === '') return null
    if (!date || Number.isNaN(date.getTime())) throw refuse('a date')
    return date
  }
  if (Array.isArray(current)) {
    if (Array.isArray(value)) return value
    throw refuse('a list')
  }
  if (typeof current === 'object') {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value
    throw refuse('an object')
  }
  return value
}

/** A property declared but `null` now: the value must be of its kind. */
function byKind(kind: PropertyKind, value: unknown, path: string): unknown {
  const refuse = (expected: string) => new HttpException(422, `"${path.slice(0, 100)}" takes ${expected}.`)
  if (value === null) return null
  switch (kind.kind) {
    case 'date': {
      if (value === '') return null
      const date = typeof value === 'string' || typeof value === 'number' ? new Date(value) : undefined
      if (!date || Number.isNaN(date.getTime())) throw refuse('a date')
      return date
    }
    case 'bigint':
      if ((typeof value === 'string' || typeof value === 'number') && /^-?\d{1,30}$/.test(String(value))) return BigInt(value)
      throw refuse('a whole number')
    case 'model':
    case 'models':
      throw new HttpException(
        403,
        `"${path.slice(0, 100)}" holds ${kind.kind === 'model' ? 'a model' : 'models'}: models are loaded by the server, never written by the browser.`,
      )
    case 'object':
      if (typeof value === 'object' && !Array.isArray(value)) return value
      throw refuse('an object')
    case 'array':
      if (Array.isArray(value)) return value
      throw refuse('a list')
    default:
      throw refuse('nothing from the browser')
  }
}

/** An undeclared property that is `null` now: text, a number, true/false or null, nothing else. */
function primitive(value: unknown, path: string): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) return value
  throw new HttpException(422, `"${path.slice(0, 100)}" is null and takes text, a number or true/false; declare what else it holds with @typed(...).`)
}
