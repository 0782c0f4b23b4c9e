/**
 * The base of every error Kiln raises on purpose. `code` is stable across
 * releases (`E_CONFIG`, `E_SESSION_MISSING`...): match on it, not on the
 * message; `hint` tells the developer what to do next.
 *
 * @example
 * ```ts
 * throw new KilnError('No APP_KEY is set.', { code: 'E_APP_KEY', hint: 'Run `kiln key:generate`.' })
 * if (error instanceof KilnError && error.code === 'E_APP_KEY') ...
 * ```
 */
export class KilnError extends Error {
  readonly hint?: string
  /** A stable, machine-readable name of what went wrong; `E_KILN` when none more precise was given. */
  readonly code: string
  constructor(message: string, options: { hint?: string; cause?: unknown; code?: string } = {}) {
    super(options.hint ? `${message} ${options.hint}` : message, { cause: options.cause })
    this.name = 'KilnError'
    this.hint = options.hint
    this.code = options.code ?? 'E_KILN'
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
  constructor(
    readonly file: string,
    readonly key: string,
    readonly reason: string,
  ) {
    super(`Invalid configuration in ${file}: ${key || '(root)'}: ${reason}`, { code: 'E_CONFIG' })
    this.name = 'ConfigError'
  }
}
