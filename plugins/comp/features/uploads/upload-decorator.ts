import { KilnError } from '../../../../core/index.ts'
import { ownMeta } from '../../state/class-meta.ts'
import { record } from '../../state/decorators.ts'
import type { PropertyKind } from '../../state/property-kinds.ts'

/** The rules of an upload property: what the browser may send into it. */
export interface UploadRules {
  /** Largest file, in kilobytes (at most `comp.uploads.max_kb`). */
  maxKb?: number
  /** Accepted types, checked against the file's content (`image/*` works). */
  mimes?: string[]
  /** Several files at once (an array of files). */
  multiple?: boolean
  /** Whether `validate()` refuses the property while it has no file (default true). */
  required?: boolean
}

declare module '../../state/property-kinds.ts' {
  interface PropertyKinds {
    /** Uploaded files, with their rules (`@upload()`). */
    upload: UploadRules
  }
}

/**
 * Declares a property that receives uploaded files, with its rules. Only
 * such properties accept uploads; the rules are checked when the browser
 * asks to upload (size and declared type), again on the file's content,
 * and by `this.validate()` (which also wants a file, unless
 * `required: false`), so they are written once.
 *
 * @example
 * ```ts
 * class Avatar extends Component {
 *   @upload({ maxKb: 1024, mimes: ['image/png', 'image/jpeg'] }) photo: TemporaryUploadedFile | null = null
 *   @upload({ mimes: ['application/pdf'], multiple: true, required: false }) papers: TemporaryUploadedFile[] = []
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
