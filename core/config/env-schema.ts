import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { z } from 'zod'
import { KilnError } from '../support/errors.ts'
import type { Env } from './env.ts'

/** What `defineEnv` returns: the schema of each declared variable. */
export interface EnvDefinition<Shape extends Record<string, z.ZodType> = Record<string, z.ZodType>> {
  readonly kind: 'kiln-env'
  readonly schema: Shape
}

/** The types of the declared variables after validation, for `KilnEnv`. @example `interface KilnEnv extends EnvValues<typeof env> {}` */
export type EnvValues<D> = D extends EnvDefinition<infer Shape> ? { [K in keyof Shape]: z.output<Shape[K]> } : never

/**
 * Declares the environment variables an app reads, with a zod schema each,
 * in `env.ts` at the app's root. The boot validates them before any config
 * file runs: a missing required variable, a value of the wrong type, or a
 * name in `.env` that misspells a declared one stops it with a message
 * naming the variable. Variables the app does not declare are left alone.
 * Values arrive as strings: use `z.coerce.number()`, `z.stringbool()`.
 *
 * @example
 * ```ts
 * // env.ts
 * import { defineEnv, type EnvValues } from 'kiln-framework'
 * import { z } from 'zod'
 *
 * const env = defineEnv({
 *   PORT: z.coerce.number().int().positive().default(3000),
 *   APP_DEBUG: z.stringbool().default(false),
 *   SESSION_DRIVER: z.enum(['memory', 'fs', 'redis']).default('fs'),
 * })
 * export default env
 * declare module 'kiln-framework' {
 *   interface KilnEnv extends EnvValues<typeof env> {}
 * }
 * ```
 */
export function defineEnv<Shape extends Record<string, z.ZodType>>(schema: Shape): EnvDefinition<Shape> {
  return { kind: 'kiln-env', schema }
}

/**
 * Imports the app's `env.ts` (or the built `env.js`), if it has one.
 *
 * @example
 * ```ts
 * const definition = await loadEnvDefinition(root)
 * ```
 */
export async function loadEnvDefinition(root: string): Promise<EnvDefinition | undefined> {
  const file = ['env.ts', 'env.js', 'env.mjs'].map((name) => join(root, name)).find((path) => existsSync(path))
  if (!file) return undefined
  let mod: { default?: unknown }
  try {
    mod = await import(pathToFileURL(file).href)
  } catch (cause) {
    throw new KilnError(`Could not load env.ts: ${(cause as Error).message}`, { cause, code: 'E_ENV' })
  }
  const definition = mod.default as EnvDefinition | undefined
  if (definition?.kind !== 'kiln-env') throw new KilnError('env.ts has no default export made by defineEnv({...}).', { code: 'E_ENV' })
  return definition
}

/**
 * Validates the declared variables of `env` and hands it their typed values. Errors name the variable
 * (never its value: it may be a secret).
 *
 * @example
 * ```ts
 * validateEnv(env, defineEnv({ PORT: z.coerce.number() }))
 * ```
 */
export function validateEnv(env: Env, definition: EnvDefinition): void {
  const raw = env.raw()
  const names = Object.keys(definition.schema)
  const problems: string[] = []
  for (const key of env.fileKeys) {
    if (key in definition.schema) continue
    const guess = names.find((name) => isTypo(key, name))
    if (guess) problems.push(`${key} in .env is not declared in env.ts: did you mean ${guess}?`)
  }
  const values: Record<string, unknown> = {}
  for (const [key, schema] of Object.entries(definition.schema)) {
    const text = raw[key]
    // An empty value is unset, as `env.get` has always read it: `APP_KEY=` in .env.example.
    const result = schema.safeParse(text === '' ? undefined : text)
    if (result.success) values[key] = result.data
    else problems.push(`${key}: ${text === undefined || text === '' ? 'required, but not set' : result.error.issues[0]!.message}`)
  }
  if (problems.length > 0)
    throw new KilnError(`Invalid environment (env.ts):\n  ${problems.join('\n  ')}`, {
      code: 'E_ENV',
      hint: '\nSet the variables in .env or the environment, or change their schema in env.ts.',
    })
  env.useDeclared(values)
}

/**
 * True when `a` is `b` with one slip: a letter left out, added, changed, or two swapped (`SESION_DRIVER`).
 * Stricter than the CLI's suggester: variables often differ by a few letters on purpose (`PUSHER_APP_ID`, `_KEY`).
 */
function isTypo(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1 || Math.min(a.length, b.length) < 4) return false
  let i = 0
  while (i < a.length && a[i] === b[i]) i++
  const swapped = a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2)
  return swapped || a.slice(i + 1) === b.slice(i + 1) || a.slice(i) === b.slice(i + 1) || a.slice(i + 1) === b.slice(i)
}
