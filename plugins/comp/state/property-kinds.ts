import { KilnError, Model } from '../../../core/index.ts'
import { ownMeta } from './class-meta.ts'
import { record } from './decorators.ts'
import type { PropertyKind, UploadRules } from './property-kind.ts'

export type { PropertyKind, UploadRules } from './property-kind.ts'

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

/**
 * Declares a property that receives uploaded files, with its rules. Only
 * such properties accept uploads; the rules are checked when the browser
 * asks to upload (size and declared type) and again on the file's content.
 *
 * @example
 * ```ts
 * class Avatar extends Component {
 *   @upload({ maxKb: 1024, mimes: ['image/png', 'image/jpeg'] }) photo: TemporaryUploadedFile | null = null
 *   @upload({ mimes: ['application/pdf'], multiple: true }) papers: TemporaryUploadedFile[] = []
 * }
 * ```
 */
export function upload(rules: UploadRules = {}) {
  if (rules.maxKb !== undefined && !(Number.isInteger(rules.maxKb) && rules.maxKb > 0))
    throw new KilnError(`@upload({ maxKb }) takes a whole number of kilobytes above 0, not ${rules.maxKb}.`)
  const kind: PropertyKind = { kind: 'upload', ...rules, multiple: rules.multiple ?? false }
  return (...args: any[]): any => {
    record(args, (Class, name) => void ownMeta(Class).kinds.set(name, kind))
  }
}
