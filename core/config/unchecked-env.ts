/**
 * The environment read by any name, declared in the app's `env.ts` or not: what framework and plugin code
 * uses for the variables it reads on its own (`HOST`, `APP_PREVIOUS_KEYS`, `DATABASE_URL`...), since an app
 * need not declare them. Apps read through `env.get()`, which accepts only the names their `env.ts`
 * declares, so a misspelt name is a compile error there; `env.unchecked` has no such check.
 *
 * A declared variable comes validated (a number stays a number, so read `PORT` with `number()`); any other
 * is the text it was set to.
 *
 * @example
 * ```ts
 * const host = app.env.unchecked.get('HOST', '127.0.0.1')
 * const port = app.env.unchecked.number('PORT', 3000)
 * ```
 */
export class UncheckedEnv {
  /** Validated values of the variables the app's `env.ts` declares. */
  private declared: Record<string, unknown> = Object.create(null)

  constructor(private readonly values: Readonly<Record<string, string | undefined>>) {}

  /** Takes the validated values of the declared variables (see `Env.useDeclared`). @example `unchecked.useDeclared({ PORT: 8080 })` */
  useDeclared(values: Record<string, unknown>): void {
    this.declared = Object.assign(Object.create(null), values)
  }

  /**
   * A variable's value, or `fallback` when unset or empty.
   *
   * @example
   * ```ts
   * app.env.unchecked.get('APP_PREVIOUS_KEYS', '')
   * ```
   */
  get(key: string): string | undefined
  get(key: string, fallback: string): string
  get(key: string, fallback?: unknown): unknown {
    return this.value(key) ?? fallback
  }

  /** A boolean: `true`, `1`, `yes` and `on` are true. @example `app.env.unchecked.boolean('APP_DEBUG', false)` */
  boolean(key: string, fallback = false): boolean {
    const value = this.value(key)
    if (value === undefined || value === null) return fallback
    if (typeof value === 'boolean') return value
    return ['true', '1', 'yes', 'on'].includes(String(value).toLowerCase())
  }

  /** A number, or `fallback` when unset or not numeric. @example `app.env.unchecked.number('PORT', 3000)` */
  number(key: string, fallback: number): number
  number(key: string): number | undefined
  number(key: string, fallback?: number): number | undefined {
    const value = this.value(key)
    const parsed = value === undefined || value === null ? NaN : Number(value)
    return Number.isFinite(parsed) ? parsed : fallback
  }

  /** True when the variable was given a non-empty value in `.env` or the environment (see `Env.isSet`). @example `app.env.unchecked.isSet('APP_URL')` */
  isSet(key: string): boolean {
    const value = this.values[key]
    return value !== undefined && value !== ''
  }

  /** True when the variable has a value, from `.env`, the environment or an `env.ts` default. @example `app.env.unchecked.has('REDIS_URL')` */
  has(key: string): boolean {
    return this.value(key) != null
  }

  /** The declared variable's validated value (which may be a number or a boolean), else its non-empty text. */
  private value(key: string): unknown {
    if (key in this.declared) return this.declared[key]
    const value = this.values[key]
    return value === '' ? undefined : value
  }
}
