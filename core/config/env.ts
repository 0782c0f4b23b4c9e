import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseEnv } from 'node:util'
import { appEnvironmentFrom } from './app-environment.ts'
import { UncheckedEnv } from './unchecked-env.ts'

/**
 * The variables an app declares in its `env.ts` (`defineEnv`), with their
 * types after validation. Empty until the app's `env.ts` augments it, so
 * `env.get('PORT')` is typed from the schema:
 *
 * @example
 * ```ts
 * // env.ts
 * import { defineEnv, type EnvValues } from 'kiln-framework'
 * import { z } from 'zod'
 * const env = defineEnv({ PORT: z.coerce.number().int().default(3000) })
 * export default env
 * declare module 'kiln-framework' {
 *   interface KilnEnv extends EnvValues<typeof env> {}
 * }
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface KilnEnv {}

type Declared = keyof KilnEnv & string

/**
 * The names `env.get()` and the other helpers accept: those the app's `env.ts` declares, so a misspelt
 * name is a compile error listing them; any name when the app declares none (no `env.ts`).
 */
// Spelt as a mapped type rather than `Declared` so that tsc's message lists the names, not the alias.
export type EnvName = [Declared] extends [never] ? string : { [K in keyof KilnEnv]-?: K }[keyof KilnEnv] & string

/** What `env.get(key)` returns: the declared variable's validated type, else the text it was set to. */
type EnvValue<K extends string> = K extends Declared ? KilnEnv[K] : string | undefined

/**
 * `get`'s parameter: the name as written when it is accepted, else the accepted names. Inferring `K` from
 * the name as written (not constrained to `EnvName`) keeps a typo's return type plain, so tsc reports the
 * typo alone and not also the config object it would have spoilt.
 */
type CheckedName<K extends string> = K extends EnvName ? K : EnvName

/**
 * The environment of one application: the app's `.env` file under the real
 * process environment (real variables win), plus any overrides a test passes.
 * Each application owns its own `Env`, so two apps in one process never share
 * settings.
 *
 * @example
 * ```ts
 * const env = Env.load('/srv/app', { APP_DEBUG: 'true' })
 * env.get('APP_NAME', 'Kiln')
 * env.boolean('APP_DEBUG') // true
 * ```
 */
export class Env {
  /**
   * Reads any variable, declared in `env.ts` or not, without the compile-time check of names: for
   * framework and plugin code, which reads variables an app need not declare (`HOST`, `DATABASE_URL`...).
   * App code reads through `get()` and the other helpers, and declares what it reads in `env.ts`.
   *
   * @example
   * ```ts
   * app.env.unchecked.get('HOST', '127.0.0.1')
   * ```
   */
  readonly unchecked: UncheckedEnv

  constructor(
    private readonly values: Record<string, string | undefined>,
    /** The names set in the app's `.env` file (not the process's), checked for misspellings of declared names. */
    readonly fileKeys: readonly string[] = [],
  ) {
    this.unchecked = new UncheckedEnv(values)
  }

  /**
   * Reads `.env` from `root` (if present) and layers the process environment and `overrides` on top.
   *
   * @example
   * ```ts
   * Env.load(process.cwd()).get('PORT')
   * ```
   */
  static load(root: string, overrides: Record<string, string | undefined> = {}, processEnv: NodeJS.ProcessEnv = process.env): Env {
    const file = join(root, '.env')
    const fromFile = existsSync(file) ? (parseEnv(readFileSync(file, 'utf8')) as Record<string, string>) : {}
    const values: Record<string, string | undefined> = { ...fromFile, ...processEnv, ...overrides }
    // NODE_ENV=production alone means a production app (appEnvironmentFrom says when NODE_ENV counts).
    const appEnv = appEnvironmentFrom(values)
    if (appEnv !== undefined) values.APP_ENV = appEnv
    return new Env(values, Object.keys(fromFile))
  }

  /** The raw text of every variable, before validation. @example `env.raw().PORT // '3000'` */
  raw(): Readonly<Record<string, string | undefined>> {
    return this.values
  }

  /**
   * Takes the validated values of the declared variables: `get` returns them as typed from then on.
   * Called at boot with the result of the app's `env.ts`.
   *
   * @example
   * ```ts
   * env.useDeclared({ PORT: 8080 })
   * env.get('PORT') // 8080
   * ```
   */
  useDeclared(values: Record<string, unknown>): void {
    this.unchecked.useDeclared(values)
  }

  /**
   * A variable's value, or `fallback` when unset or empty. A variable the app's `env.ts` declares comes
   * validated and typed (`env.get('PORT')` is a number). Once `env.ts` declares variables, only their
   * names are accepted: `env.get('SESION_DRIVER')` is a compile error listing the declared names.
   *
   * @example
   * ```ts
   * env.get('APP_URL', 'http://localhost:3000')
   * ```
   */
  get<K extends string>(key: CheckedName<K>): EnvValue<K>
  get<K extends string>(key: CheckedName<K>, fallback: NonNullable<EnvValue<K>>): NonNullable<EnvValue<K>>
  get(key: string, fallback?: unknown): unknown {
    return this.unchecked.get(key, fallback as string)
  }

  /** A boolean: `true`, `1`, `yes` and `on` are true. @example `env.boolean('APP_DEBUG', false)` */
  boolean(key: EnvName, fallback = false): boolean {
    return this.unchecked.boolean(key, fallback)
  }

  /** A number, or `fallback` when unset or not numeric. @example `env.number('PORT', 3000)` */
  number(key: EnvName, fallback: number): number
  number(key: EnvName): number | undefined
  number(key: string, fallback?: number): number | undefined {
    return fallback === undefined ? this.unchecked.number(key) : this.unchecked.number(key, fallback)
  }

  /**
   * True when the variable was given a non-empty value in `.env` or the environment, not by a default of
   * `env.ts`: what tells "APP_URL was never set" from "APP_URL is the default".
   *
   * @example
   * ```ts
   * env.isSet('APP_URL') // false when only env.ts's default gives it a value
   * ```
   */
  isSet(key: EnvName): boolean {
    return this.unchecked.isSet(key)
  }

  /** True when the variable is set to a non-empty value. @example `env.has('REDIS_URL')` */
  has(key: EnvName): boolean {
    return this.unchecked.has(key)
  }
}
