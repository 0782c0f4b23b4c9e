import type { z } from 'zod'
import { nearest } from '../cli/suggest.ts'
import { ConfigError, KilnError } from '../support/errors.ts'

/** zod's wrappers that hold the schema of the value inside them. */
interface SchemaDef {
  type: string
  innerType?: z.ZodType
  out?: z.ZodType
  in?: z.ZodType
  shape?: Record<string, z.ZodType>
  valueType?: z.ZodType
  element?: z.ZodType
}

const defOf = (schema: z.ZodType): SchemaDef => (schema as unknown as { _zod: { def: SchemaDef } })._zod.def

/** Unwraps defaults, optionals and preprocessors down to the schema that checks the value. */
function unwrap(schema: z.ZodType): z.ZodType {
  for (let def = defOf(schema); ; def = defOf(schema)) {
    if (def.innerType) schema = def.innerType
    else if (def.type === 'pipe' && def.out && defOf(def.out).type !== 'transform') schema = def.out
    else if (def.type === 'pipe' && def.in) schema = def.in
    else return schema
  }
}

/** The keys an object schema knows at `path` (segments of record keys and list indexes are stepped over). */
export function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let current = unwrap(schema)
  for (const segment of path) {
    const def = defOf(current)
    const next = def.shape?.[String(segment)] ?? def.valueType ?? def.element
    if (!next) return []
    current = unwrap(next)
  }
  return Object.keys(defOf(current).shape ?? {})
}

/**
 * The error for a config file that failed its schema. A misspelled key is
 * reported before anything else it caused (a required key then missing), with
 * the key it most likely meant.
 *
 * @example
 * ```ts
 * throw configIssue('config/session.ts', sessionConfigSchema, result.error.issues)
 * // Invalid configuration in config/session.ts: drvier: unknown key, did you mean "driver"?
 * ```
 */
export function configIssue(file: string, schema: z.ZodType, issues: readonly z.core.$ZodIssue[]): ConfigError {
  const unknown = issues.find((issue) => issue.code === 'unrecognized_keys')
  if (unknown && unknown.code === 'unrecognized_keys') {
    const key = unknown.keys[0]!
    const known = keysAt(schema, unknown.path)
    const guess = nearest(key, known)
    const where = [...unknown.path, key].join('.')
    const reason = guess
      ? `unknown key, did you mean "${guess}"?`
      : `unknown key (this ${unknown.path.length ? 'object' : 'file'} has: ${known.join(', ') || 'no keys'})`
    return new ConfigError(file, where, reason)
  }
  const issue = issues[0]!
  return new ConfigError(file, issue.path.join('.'), issue.message)
}

/**
 * Refuses a config file whose name is a near miss of a file Kiln reads (`config/sesion.ts` beside
 * `session`): it would be loaded and never read. Files with names of their own are the app's, and stay.
 *
 * @example
 * ```ts
 * checkConfigFileNames(['sesion'], ['session', 'http'])
 * // throws: config/sesion.ts is not read by Kiln or any plugin: did you mean config/session.ts?
 * ```
 */
export function checkConfigFileNames(files: Iterable<string>, known: readonly string[]): void {
  const knownSet = new Set(known)
  for (const file of files) {
    // Two- and three-letter names are too close to everything to call a typo.
    if (knownSet.has(file) || file.length < 4) continue
    const guess = nearest(file, [...known])
    if (guess)
      throw new KilnError(`config/${file}.ts is not read by Kiln or any plugin: did you mean config/${guess}.ts?`, {
        code: 'E_CONFIG_FILE',
        hint: `Rename it to config/${guess}.ts. A file of the app's own needs a name that is not so close to one Kiln reads.`,
      })
  }
}
