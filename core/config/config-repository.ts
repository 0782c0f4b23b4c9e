import { z } from 'zod'
import { deepMerge, getPath } from '../support/dot-path.ts'
import { checkConfigFileNames, configIssue } from './config-issues.ts'

/** Files of Kiln's own plugins: a near miss of one is a typo even when its plugin is not enabled. */
const PLUGIN_FILES = ['tok', 'comp', 'broadcasting', 'mail']

/**
 * Holds an application's configuration, one entry per `config/*.ts` file.
 * Files that have a registered zod schema are validated (and get their
 * defaults) when the schema is defined; other files are kept as written.
 *
 * @example
 * ```ts
 * config.define('mail', z.object({ from: z.string().default('app@example.com') }))
 * config.get('mail.from') // 'app@example.com'
 * config.set('mail.from', 'me@example.com')
 * ```
 */
export class ConfigRepository {
  private readonly values: Record<string, unknown> = Object.create(null)
  private readonly schemas = new Map<string, z.ZodType>()
  private readonly memo = new Map<string, unknown>()

  constructor(raw: Record<string, unknown> = {}) {
    for (const [file, value] of Object.entries(raw)) this.values[file] = value
  }

  /**
   * Registers a schema for one config file and validates the file against it now.
   * A missing file is validated as `{}`, so schema defaults apply.
   *
   * @example
   * ```ts
   * app.config.define('tok', z.object({ expiration: z.number().nullable().default(null) }))
   * ```
   */
  define<S extends z.ZodType>(file: string, schema: S): z.output<S> {
    this.schemas.set(file, schema)
    const result = schema.safeParse(this.values[file] ?? {})
    if (!result.success) throw configIssue(`config/${file}.ts`, schema, result.error.issues)
    this.values[file] = result.data
    this.memo.clear()
    return result.data
  }

  /**
   * Stops the boot on a file that no schema reads and whose name is a near miss of one that does
   * (`config/sesion.ts`): it would be loaded and never read. Called once every plugin has defined its schema.
   *
   * @example
   * ```ts
   * config.checkFileNames() // throws: config/sesion.ts is not read by Kiln or any plugin: did you mean config/session.ts?
   * ```
   */
  checkFileNames(): void {
    const known = [...new Set([...this.schemas.keys(), ...PLUGIN_FILES])]
    checkConfigFileNames(
      Object.keys(this.values).filter((file) => !this.schemas.has(file)),
      known,
    )
  }

  /** True when a schema was registered for `file`. @example `config.isDefined('session')` */
  isDefined(file: string): boolean {
    return this.schemas.has(file)
  }

  /**
   * Reads a dotted key: the first segment names the file.
   *
   * @example
   * ```ts
   * config.get('session.driver')
   * config.get<number>('session.lifetime', 120)
   * ```
   */
  get<T = unknown>(key: string, fallback?: T): T {
    // Remembered per key until the next `set`: hot paths read the same keys on every request. Missing keys are
    // not remembered, so a value a plugin adds in place later is still found.
    let value = this.memo.get(key)
    if (value === undefined) {
      value = getPath(this.values, key)
      if (value !== undefined && this.memo.size < 1000) this.memo.set(key, value)
    }
    return (value === undefined ? fallback : value) as T
  }

  /** True when the dotted key has a value. @example `config.has('broadcasting.connections.kv')` */
  has(key: string): boolean {
    return getPath(this.values, key) !== undefined
  }

  /**
   * Sets a dotted key at runtime (tests, plugins). Re-validates the file when it has a schema.
   *
   * @example
   * ```ts
   * config.set('app.debug', true)
   * ```
   */
  set(key: string, value: unknown): void {
    const [file, ...rest] = key.split('.')
    const patch = rest.reduceRight<unknown>((acc, part) => ({ [part]: acc }), value)
    const merged = rest.length === 0 ? value : deepMerge(this.values[file!] ?? {}, patch)
    this.values[file!] = merged
    this.memo.clear()
    const schema = this.schemas.get(file!)
    if (schema) this.define(file!, schema)
  }

  /** Every file's values, for `config:show`-style tooling. @example `config.all().app` */
  all(): Readonly<Record<string, unknown>> {
    return this.values
  }
}
