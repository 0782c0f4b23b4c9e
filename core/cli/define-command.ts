import type { Application } from '../application/application.ts'

/** One flag of a command: `--hours=24`, `--force`. */
export interface FlagDefinition {
  type: 'string' | 'boolean' | 'number'
  description: string
  default?: string | boolean | number
  /** One-letter alias: `-p` for `--port`. */
  short?: string
}

/** What a command's `run` receives. */
export interface CommandContext {
  /** The booted app. For `needsApp: false` commands run where no app boots, touching it throws a clear error. */
  app: Application
  /** The application root (`--root`, `KILN_ROOT`, else the working directory). */
  root: string
  /**
   * Boots the app at `root` with the CLI's environment, for a `needsApp: false` command that wants one when it
   * can (`kiln build` runs the app's checks); the command closes it. Rejects when the app does not boot.
   */
  bootApp?: () => Promise<Application>
  /** The working directory the command was started in. */
  cwd: string
  /** Positional arguments, in order. */
  args: string[]
  /** Parsed flags, with defaults applied. */
  flags: Record<string, string | boolean | number | undefined>
  /** Writes a line to stdout. */
  info(message: string): void
  /** Writes a line to stderr. */
  warn(message: string): void
  /** Writes a line to stderr. */
  error(message: string): void
  /** Prints rows as an aligned table. */
  table(rows: Array<Record<string, unknown>>): void
}

/** A CLI command. */
export interface CommandDefinition {
  /** `migrate`, `tok:prune-expired`, `make:channel`. */
  name: string
  description: string
  /** Positional arguments, for `--help`: `[{ name: 'dir', description: 'Target folder', required: true }]`. */
  args?: Array<{ name: string; description: string; required?: boolean }>
  flags?: Record<string, FlagDefinition>
  /**
   * False for commands that must work where no app boots (`new`,
   * `key:generate` before a key exists). Default true.
   */
  needsApp?: boolean
  /** The command manages the app's lifetime itself (`serve`): the runner does not close the app after it. */
  longRunning?: boolean
  /**
   * Command lines shown under "Examples" in `kiln help <command>`, as typed:
   * `'kiln migrate:rollback --step=2'` (a leading `kiln ` is added when
   * missing). Without any, help shows the bare usage as the example.
   */
  examples?: string[]
  /**
   * The command destroys data (drops tables, overwrites rows). When the app
   * runs with `APP_ENV=production` the runner refuses it unless `--force` is
   * given, before `run` is called; a `--force` flag is added if the command
   * declares none. A string says what it destroys, for the refusal message:
   * `'drops every table'`.
   */
  destructive?: boolean | string
  /** Returns an exit code (default 0). Throw `CommandError` for a clean message and exit code 1. */
  run(ctx: CommandContext): void | number | Promise<void | number>
}

/**
 * Declares a CLI command. Plugins register commands in `boot(app)` with
 * `app.commands.register(...)`.
 *
 * @example
 * ```ts
 * export const pruneCommand = defineCommand({
 *   name: 'tok:prune-expired',
 *   description: 'Delete expired personal access tokens.',
 *   flags: { hours: { type: 'number', description: 'Hours past expiry', default: 24 } },
 *   examples: ['kiln tok:prune-expired', 'kiln tok:prune-expired --hours=0'],
 *   async run({ flags, info }) {
 *     info(`Deleted ${await prune(Number(flags.hours))} tokens.`)
 *   },
 * })
 * ```
 */
export function defineCommand(definition: CommandDefinition): CommandDefinition {
  return definition
}

/**
 * A failure a command reports to its user: printed without a stack, exit code 1.
 *
 * @example
 * ```ts
 * throw new CommandError('No migrations table: run `kiln migrate` first.')
 * ```
 */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message)
    this.name = 'CommandError'
  }
}
