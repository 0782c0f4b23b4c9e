import { HttpException } from '../../../../core/index.ts'
import { metaOf } from '../../state/class-meta.ts'
import type { CompConfig } from '../../comp-config.ts'
import type { UploadRules } from './upload-decorator.ts'

/** The rules an upload into one property is held to: its `@upload()` rules within the app's `comp.uploads`. */
export interface EffectiveUploadRules {
  /** Largest file in kilobytes: the property's `maxKb`, never above `comp.uploads.max_kb`. */
  maxKb: number
  /** Accepted types; empty accepts any (stored as `application/octet-stream` unless recognised). */
  mimes: string[]
  multiple: boolean
}

/**
 * The upload rules of `property` on a component class: from its `@upload()`
 * declaration, capped by the app's `comp.uploads` (`max_kb`, and `mimes`
 * when the app lists any). A property without `@upload()` takes no files:
 * 403.
 *
 * @example
 * ```ts
 * const rules = uploadRulesOf(Avatar, 'photo', config.uploads) // { maxKb: 1024, mimes: ['image/png'], multiple: false }
 * ```
 */
export function uploadRulesOf(Class: Function, property: string, config: CompConfig['uploads']): EffectiveUploadRules {
  const kind = metaOf(Class).kinds.get(property)
  if (kind?.kind !== 'upload')
    throw new HttpException(403, `${Class.name}.${property.slice(0, 100)} takes no files: only a property declared with @upload() does.`)
  return effectiveRules(kind, config)
}

function effectiveRules(rules: UploadRules, config: CompConfig['uploads']): EffectiveUploadRules {
  const declared = rules.mimes ?? []
  const mimes = config.mimes.length === 0 ? declared : declared.length === 0 ? config.mimes : intersect(declared, config.mimes)
  if (declared.length > 0 && mimes.length === 0)
    throw new HttpException(403, `None of the types this property accepts (${declared.join(', ')}) is in comp.uploads.mimes.`)
  return { maxKb: Math.min(rules.maxKb ?? config.max_kb, config.max_kb), mimes, multiple: rules.multiple === true }
}

/**
 * The types both lists accept: the app's list bounds every component's. A
 * declared type the app accepts stays as it is (`image/png` under the
 * app's `image/*`); a declared group stands for the app's types in it
 * (`image/*` under the app's PNG and JPEG is PNG and JPEG).
 *
 * @example
 * ```ts
 * intersect(['image/*'], ['image/png', 'image/jpeg', 'application/pdf']) // ['image/png', 'image/jpeg']
 * ```
 */
function intersect(declared: readonly string[], app: readonly string[]): string[] {
  const both = new Set<string>()
  for (const type of declared) {
    if (app.some((accepted) => mimeMatches(accepted, type))) both.add(type)
    else for (const accepted of app) if (mimeMatches(type, accepted)) both.add(accepted)
  }
  return [...both]
}

/**
 * Refuses (422, with a message for the user) a file the browser describes
 * before sending it: a bad name, no size, too large, or a declared type the
 * rules do not accept. The content is checked again once it arrives.
 *
 * @example
 * ```ts
 * checkDescribedFile({ name: 'me.png', type: 'image/png', size: 1234 }, rules)
 * ```
 */
export function checkDescribedFile(file: { name: string; type: string; size: number }, rules: EffectiveUploadRules): void {
  const { name, type, size } = file
  if (name.length === 0 || name.length > 255 || /[\\/\0]/.test(name)) throw new HttpException(422, 'The file name is not valid.')
  if (!Number.isSafeInteger(size) || size < 0) throw new HttpException(422, `The file "${name}" has no valid size.`)
  if (size > rules.maxKb * 1024) throw new HttpException(422, `The file "${name}" may not be larger than ${rules.maxKb} KB.`)
  if (rules.mimes.length > 0 && !accepts(rules.mimes, type)) throw new HttpException(422, `The file "${name}" must be one of: ${rules.mimes.join(', ')}.`)
}

/** True when one of `mimes` (`image/*` included) accepts `type`. @example `accepts(['image/*'], 'image/png') // true` */
export function accepts(mimes: readonly string[], type: string): boolean {
  return mimes.some((accepted) => mimeMatches(accepted, type))
}

/** `image/*` matches `image/png`; parameters (`; charset=`) are ignored. */
function mimeMatches(accepted: string, type: string): boolean {
  const [group, sub] = accepted.toLowerCase().split('/')
  const [actualGroup, actualSub] = type.toLowerCase().split(';')[0]!.trim().split('/')
  return group === actualGroup && (sub === '*' || sub === actualSub)
}
