/**
 * The base of every error Kiln raises on purpose. `hint` tells the developer
 * what to do next.
 *
 * @example
 * ```ts
 * throw new KilnError('No APP_KEY is set.', { hint: 'Run `kiln key:generate`.' })
 * ```
 */
export class KilnError extends Error {
  readonly hint?: string
  constructor(message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(options.hint ? `${message} ${options.hint}` : message, { cause: options.cause })
    this.name = 'KilnError'
    this.hint = options.hint
  }
}

/**
 * A configuration file failed validation: names the file, the key and the reason.
 *
 * @example
 * ```ts
 * new ConfigError('config/session.ts', 'driver', 'expected "memory" | "fs" | "redis"')
 * ```
 */
export class ConfigError extends KilnError {
  constructor(readonly file: string, readonly key: string, readonly reason: string) {
    super(`Invalid configuration in ${file}: ${key || '(root)'}: ${reason}`)
    this.name = 'ConfigError'
  }
}
