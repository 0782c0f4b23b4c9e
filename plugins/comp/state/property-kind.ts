import type { Model } from '../../../core/index.ts'

/** The rules of an upload property: what the browser may send into it. */
export interface UploadRules {
  /** Largest file, in kilobytes (at most `comp.uploads.max_kb`). */
  maxKb?: number
  /** Accepted types, checked against the file's content (`image/*` works). */
  mimes?: string[]
  /** Several files at once (an array of files). */
  multiple?: boolean
}

/**
 * What a property may hold, declared at runtime (TypeScript's types are
 * erased): a date, a whole number (bigint), a model or a list of models of
 * one class, a plain object, a list, or uploaded files. A property that
 * starts as a value of one of these keeps it; one that starts as `null`
 * needs a declaration, or it takes only JSON primitives (text, numbers,
 * true/false, null).
 */
export type PropertyKind =
  | { kind: 'date' }
  | { kind: 'bigint' }
  | { kind: 'model'; model: typeof Model }
  | { kind: 'models'; model: typeof Model }
  | { kind: 'object' }
  | { kind: 'array' }
  | ({ kind: 'upload' } & UploadRules)
