import type { z } from 'zod'
import type { Env } from './env.ts'

/** What a config file's factory receives. */
export interface ConfigContext {
  env: Env
  root: string
}

/** A config file's default export: a value, or a factory evaluated per application. */
export type ConfigDefinition<T> = T | ((ctx: ConfigContext) => T)

/**
 * Declares a `config/*.ts` file. Pass a factory to read the environment: it runs
 * once per application, so test apps with different environments stay apart.
 *
 * @example
 * ```ts
 * // config/session.ts
 * import { defineConfig } from 'kiln-framework'
 * export default defineConfig(({ env }) => ({
 *   driver: env.get('SESSION_DRIVER', 'fs'),
 *   lifetime: 120,
 * }))
 * ```
 */
export function defineConfig<T>(definition: ConfigDefinition<T>): ConfigDefinition<T> {
  return definition
}

/** Evaluates a definition for one application. @example `resolveDefinition(mod.default, { env, root })` */
export function resolveDefinition<T>(definition: ConfigDefinition<T>, ctx: ConfigContext): T {
  return typeof definition === 'function' ? (definition as (c: ConfigContext) => T)(ctx) : definition
}

/**
 * `T` with every key that `Shape` does not have typed as a message naming it (`UnknownKey`), at every depth:
 * TypeScript checks a factory's returned object only against the keys it names, so a misspelled key would
 * otherwise pass. Lists, functions and records (whose keys are free) are left as they are.
 */
export type NoExtraKeys<T, Shape> = unknown extends Shape
  ? T
  : Shape extends readonly unknown[] | AnyFunction
    ? T
    : T extends object
      ? { [K in keyof T]: K extends keyof Shape ? (unknown extends Shape[K] ? T[K] : NoExtraKeys<T[K], NonNullable<Shape[K]>>) : UnknownKey<K, Shape> }
      : T

type AnyFunction = (...args: never[]) => unknown

/** The keys of `Shape` that begin as `K` does (its first three characters): the likely meant ones. */
type LikelyKeys<K, Shape> = K extends `${infer A}${infer B}${infer C}${string}` ? Extract<keyof Shape, `${A}${B}${C}${string}`> & string : never

/**
 * What the compiler says of a key the config does not have, in place of a wall of overloads:
 * `Type 'number' is not assignable to type "'lifetme' is not a config key here: did you mean 'lifetime'?"`.
 */
type UnknownKey<K, Shape> = [LikelyKeys<K, Shape>] extends [never]
  ? `'${K & string}' is not a config key here`
  : `'${K & string}' is not a config key here: did you mean '${LikelyKeys<K, Shape>}'?`

/**
 * A feature's own `define…Config`: a value or a factory, with nothing the feature does not know. One
 * signature, not an overload for each form, so that a misspelled key gets one message, at the key.
 */
export type ConfigDefiner<Input> = <T extends Input | ((ctx: ConfigContext) => Input)>(
  definition: T extends AnyFunction ? (ctx: ConfigContext) => NoExtraKeys<ReturnType<T>, Input> : NoExtraKeys<T, Input>,
) => ConfigDefinition<Input>

/**
 * Makes a feature's typed `define…Config` from its zod schema: `tsc` rejects a key the schema does not
 * have (its input type, `z.input`), and the schema, a strict object, rejects it again at boot.
 *
 * @example
 * ```ts
 * import { z } from 'zod'
 * import { configDefiner } from 'kiln-framework'
 *
 * export const billingConfigSchema = z.strictObject({ currency: z.string().default('EUR') })
 * export const defineBillingConfig = configDefiner(billingConfigSchema)
 * // config/billing.ts
 * export default defineBillingConfig({ currency: 'GBP' })
 * ```
 */
export function configDefiner<S extends z.ZodType>(schema: S): ConfigDefiner<z.input<S>> {
  void schema
  return ((definition: ConfigDefinition<z.input<S>>) => definition) as ConfigDefiner<z.input<S>>
}
