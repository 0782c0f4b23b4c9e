/**
 * The flags the runner itself reads, wherever they appear, and what is left for the command.
 *
 * @example
 * ```ts
 * const { help, rest }: GlobalFlags = globalFlags(['migrate', '--help']) // help: true, rest: ['migrate']
 * ```
 */
export interface GlobalFlags {
  help: boolean
  version: boolean
  verbose: boolean
  /** `--root=<dir>` or `--root <dir>`; empty when the folder is missing. */
  root?: string
  /** `-q`/`--quiet`: nothing on stdout and no warnings, only errors. */
  quiet: boolean
  /** `--ansi` (true) forces colour, `--no-ansi` (false) turns it off; unset, the streams decide. */
  ansi?: boolean
  /** `--env=<name>`: the environment to run in (`.env.<name>` over `.env`, `APP_ENV=<name>`); empty when the name is missing. */
  env?: string
  /** The command name (or `help`), its arguments and its own flags. */
  rest: string[]
}

/**
 * Takes the runner's own flags out of argv. This is done by hand rather than
 * with citty: they must be found before the command (and so its flag
 * definitions) is known, anywhere on the line (`kiln migrate --help`), and
 * everything else must reach the command untouched. `-v`/`--version` only
 * count with no command name, so a command remains free to read them.
 *
 * @example
 * ```ts
 * globalFlags(['migrate', '--verbose', '--root=app']) // { rest: ['migrate'], verbose: true, root: 'app', ... }
 * ```
 */
export function globalFlags(argv: string[]): GlobalFlags {
  const flags: GlobalFlags = { help: false, version: false, verbose: false, quiet: false, rest: [] }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--') {
      flags.rest.push(...argv.slice(i))
      break
    }
    if (arg === '--help' || arg === '-h') flags.help = true
    else if (arg === '--verbose') flags.verbose = true
    else if (arg === '--quiet' || arg === '-q') flags.quiet = true
    else if (arg === '--ansi' || arg === '--no-ansi') flags.ansi = arg === '--ansi'
    else if (arg.startsWith('--env=')) flags.env = arg.slice('--env='.length)
    else if (arg === '--env') flags.env = argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('-') ? argv[++i] : ''
    else if (arg.startsWith('--root=')) flags.root = arg.slice('--root='.length)
    else if (arg === '--root') flags.root = argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('-') ? argv[++i] : ''
    else flags.rest.push(arg)
  }
  const named = flags.rest[0] !== undefined && !flags.rest[0].startsWith('-')
  if (!named && flags.rest.some((a) => a === '--version' || a === '-v')) {
    flags.version = true
    flags.rest = flags.rest.filter((a) => a !== '--version' && a !== '-v')
  }
  return flags
}
