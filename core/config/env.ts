import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseEnv } from 'node:util'
import { appEnvironmentFrom } from './app-environment.ts'

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
  /** Validated values of the variables the app's `env.ts` declares (numbers stay numbers). */
  private declared: Record<string, unknown> = Object.create(null)

  constructor(
    private readonly values: Record<string, string | undefined>,
    /** The names set in the app's `.env` file (not the process's), checked for misspellings of declared names. */
    readonly fileKeys: readonly string[] = [],
  ) {}

  /**
   * Reads `.env` from `root` (if present) and layers the process environment and `overrides` on top.
   *
   * @example
   * ```ts
   * Env.load(process.cwd()).get('PORT', '3000')
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
    this.declared = Object.assign(Object.create(null), values)
  }

  /**
   * A variable's value, or `fallback` when unset or empty. A variable the app's `env.ts` declares comes
   * validated and typed (`env.get('PORT')` is a number); any other is the string it was set to.
   *
   * @example
   * ```ts
   * env.get('APP_URL', 'http://localhost:3000')
   * ```
   */
  get<K extends Declared>(key: K): KilnEnv[K]
  get<K extends Declared>(key: K, fallback: NonNullable<KilnEnv[K]>): NonNullable<KilnEnv[K]>
  get(key: string): string | undefined
  get(key: string, fallback: string): string
  get(key: string, fallback?: unknown): unknown {
    if (key in this.declared) return this.declared[key] ?? fallback
    const value = this.values[key]
    return value === undefined || value === '' ? fallback : value
  }

  /** A boolean: `true`, `1`, `yes` and `on` are true. @example `env.boolean('APP_DEBUG', false)` */
  boolean(key: string, fallback = false): boolean {
    const value = this.get(key) as unknown
    if (value === undefined || value === null) return fallback
    if (typeof value === 'boolean') return value
    return ['true', '1', 'yes', 'on'].includes(String(value).toLowerCase())
  }

  /** A number, or `fallback` when unset or not numeric. @example `env.number('PORT', 3000)` */
  number(key: string, fallback: number): number
  number(key: string): number | undefined
  number(key: string, fallback?: number): number | undefined {
    const value = this.get(key) as unknown
    const parsed = value === undefined || value === null ? NaN : Number(value)
    return Number.isFinite(parsed) ? parsed : fallback
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
  isSet(key: string): boolean {
    const value = this.values[key]
    return value !== undefined && value !== ''
  }

  /** True when the variable is set to a non-empty value. @example `env.has('REDIS_URL')` */
  has(key: string): boolean {
    return (this.get(key) as unknown) !== undefined
  }
}
