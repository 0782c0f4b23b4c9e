import type { z } from 'zod'
import { KilnError, Model } from '../../../core/index.ts'
import { ownMeta } from './class-meta.ts'
import { record } from './decorators.ts'
import type { StateContext } from './state.ts'

/**
 * The kinds a property may be declared to hold, by name, with what each
 * declaration carries. A feature adds its own kinds by declaration merging
 * (the uploads feature adds `upload`, with its rules) and says how a value
 * from the browser becomes one with `addKindRule`.
 */
export interface PropertyKinds {
  date: object
  bigint: object
  model: { model: typeof Model }
  models: { model: typeof Model }
  object: object
  array: object
}

/**
 * What a property may hold, declared at runtime (TypeScript's types are
 * erased): a date, a whole number (bigint), a model or a list of models of
 * one class, a plain object, a list, or a kind a feature declares (uploaded
 * files). A property that starts as a value of one of these keeps it; one
 * that starts as `null` needs a declaration, or it takes only JSON
 * primitives (text, numbers, true/false, null).
 */
export type PropertyKind = { [K in keyof PropertyKinds]: { kind: K } & PropertyKinds[K] }[keyof PropertyKinds]

/**
 * How a value from the browser becomes a property of a kind a feature
 * declares (`@upload()`).
 *
 * @example
 * ```ts
 * addKindRule('upload', { coerce: (value, path, kind, context) => openUploads(value, context) })
 * ```
 */
export interface KindRule {
  /** The property's new value from what the browser sent (422 when it does not fit). */
  coerce(value: unknown, path: string, kind: PropertyKind, context: StateContext): unknown
  /** The kind of one item inside a property of this kind (one file of a list of uploads), if items have one. */
  item?(kind: PropertyKind): PropertyKind | undefined
  /** The rule `validate()` checks a property of this kind with, from its declaration (an `@upload()` property's limits). */
  rule?(kind: PropertyKind): z.ZodType | undefined
}

const rules = new Map<string, KindRule>()

/**
 * Says how a value from the browser becomes a property of a feature's kind.
 *
 * @example
 * ```ts
 * addKindRule('upload', uploadKind)
 * ```
 */
export function addKindRule(kind: keyof PropertyKinds, rule: KindRule): void {
  rules.set(kind, rule)
}

/**
 * The rule of a feature's property kind, if one was added.
 *
 * @example
 * ```ts
 * kindRule('upload')?.coerce(value, path, kind, context)
 * ```
 */
export function kindRule(kind: string): KindRule | undefined {
  return rules.get(kind)
}

/** What `@typed()` accepts: `Date`, `BigInt`, `Object`, `Array`, a model class, or `[ModelClass]` for a list of models. */
export type KindTarget = DateConstructor | BigIntConstructor | ObjectConstructor | ArrayConstructor | typeof Model | [typeof Model]

/**
 * The kind of a declaration target. @internal
 *
 * @example
 * ```ts
 * kindOf(Date) // { kind: 'date' }
 * ```
 */
export function kindOf(target: KindTarget): PropertyKind {
  if (target === Date) return { kind: 'date' }
  if (target === BigInt) return { kind: 'bigint' }
  if (target === Object) return { kind: 'object' }
  if (target === Array) return { kind: 'array' }
  if (Array.isArray(target) && target.length === 1 && isModelClass(target[0])) return { kind: 'models', model: target[0] }
  if (isModelClass(target)) return { kind: 'model', model: target }
  throw new KilnError('@typed() takes Date, BigInt, Object, Array, a model class, or [ModelClass] for a list of models.')
}

function isModelClass(value: unknown): value is typeof Model {
  return typeof value === 'function' && (value === Model || value.prototype instanceof Model)
}

/**
 * Declares what a property holds, for properties whose value says nothing
 * at first (they start as `null`): the browser can then only put a value of
 * that kind in it (a 422 otherwise), and models and files never come from
 * the browser at all.
 *
 * @example
 * ```ts
 * class EditPost extends Component {
 *   @typed(Post) post: Post | null = null
 *   @typed(Date) publishAt: Date | null = null
 *   @typed([Tag]) tags: Tag[] = []
 * }
 * ```
 */
export function typed(target: KindTarget) {
  const kind = kindOf(target)
  return (...args: any[]): any => {
    record(args, (Class, name) => void ownMeta(Class).kinds.set(name, kind))
  }
}
