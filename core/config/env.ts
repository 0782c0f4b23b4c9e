import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseEnv } from 'node:util'

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
  constructor(private readonly values: Record<string, string | undefined>) {}

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
    return new Env({ ...fromFile, ...processEnv, ...overrides })
  }

  /** A string value, or `fallback` when unset or empty. @example `env.get('APP_URL', 'http://localhost:3000')` */
  get(key: string): string | undefined
  get(key: string, fallback: string): string
  get(key: string, fallback?: string): string | undefined {
    const value = this.values[key]
    return value === undefined || value === '' ? fallback : value
  }

  /** A boolean: `true`, `1`, `yes` and `on` are true. @example `env.boolean('APP_DEBUG', false)` */
  boolean(key: string, fallback = false): boolean {
    const value = this.get(key)
    if (value === undefined) return fallback
    return ['true', '1', 'yes', 'on'].includes(value.toLowerCase())
  }

  /** A number, or `fallback` when unset or not numeric. @example `env.number('PORT', 3000)` */
  number(key: string, fallback: number): number
  number(key: string): number | undefined
  number(key: string, fallback?: number): number | undefined {
    const value = this.get(key)
    const parsed = value === undefined ? NaN : Number(value)
    return Number.isFinite(parsed) ? parsed : fallback
  }

  /** True when the variable is set to a non-empty value. @example `env.has('REDIS_URL')` */
  has(key: string): boolean {
    return this.get(key) !== undefined
  }
}
