import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { kilnPackageRoot } from '../support/package-root.ts'
import type { Colors } from './colors.ts'
import type { CommandDefinition, FlagDefinition } from './define-command.ts'

// Kiln renders its help itself rather than with citty's `renderUsage`: that
// one decides colour once, at import, from `process.env` (so piped output and
// `NO_COLOR=yes` still get escape codes, and tests cannot choose), has no
// place for examples, and lists subcommands flat where Kiln groups them by
// namespace the way artisan and ace do.

/**
 * Kiln's version, from the framework's own package.json.
 *
 * @example
 * ```ts
 * kilnVersion() // '0.1.0'
 * ```
 */
export function kilnVersion(): string {
  const pkg = JSON.parse(readFileSync(join(kilnPackageRoot(), 'package.json'), 'utf8')) as { version: string }
  return pkg.version
}

/**
 * The flags a command accepts: its own, plus the `--force` the runner gives
 * every destructive command that declares none.
 *
 * @example
 * ```ts
 * Object.keys(commandFlags(migrateFreshCommand)) // ['connection', 'seed', 'force']
 * ```
 */
export function commandFlags(command: CommandDefinition): Record<string, FlagDefinition> {
  const flags = { ...(command.flags ?? {}) }
  if (command.destructive && !flags.force) flags.force = { type: 'boolean', description: 'Run even when APP_ENV=production' }
  return flags
}

/**
 * One line of usage: `kiln make:channel <name> [options]`.
 *
 * @example
 * ```ts
 * usageLine(makeChannelCommand) // 'kiln make:channel <name> [options]'
 * ```
 */
export function usageLine(command: CommandDefinition): string {
  const args = (command.args ?? []).map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`))
  return ['kiln', command.name, ...args, ...(Object.keys(commandFlags(command)).length ? ['[options]'] : [])].join(' ')
}

/**
 * A flag as typed: `-p, --port=<number>`, `    --force`.
 *
 * @example
 * ```ts
 * flagLabel('port', { type: 'number', description: 'Port', short: 'p' }) // '-p, --port=<number>'
 * ```
 */
export function flagLabel(name: string, flag: FlagDefinition): string {
  return `${flag.short ? `-${flag.short}, ` : '    '}--${name}${flag.type === 'boolean' ? '' : `=<${flag.type}>`}`
}

const GLOBAL_OPTIONS: Array<[string, string]> = [
  ['-h, --help', 'Show help (for a command: kiln <command> --help)'],
  ['    --root=<dir>', 'The application folder (default: KILN_ROOT, else the working directory)'],
  ['    --verbose', 'Print the stack of an unexpected error'],
  ['-q, --quiet', 'Print nothing but errors'],
  ['    --ansi, --no-ansi', 'Force colour on, or off (default: on at a terminal)'],
  ['    --env=<name>', 'Run in that environment: .env.<name> over .env, and APP_ENV=<name>'],
]

/**
 * `kiln help <command>`: description, usage, arguments, options with their
 * defaults, and examples.
 *
 * @example
 * ```ts
 * process.stdout.write(commandHelp(migrateCommand, picocolors.createColors(false)) + '\n')
 * ```
 */
export function commandHelp(command: CommandDefinition, c: Colors): string {
  const lines = [c.yellow('Description:'), `  ${command.description}`, '', c.yellow('Usage:'), `  ${usageLine(command)}`]
  if (command.args?.length) {
    lines.push('', c.yellow('Arguments:'))
    lines.push(
      ...columns(
        command.args.map((a) => [a.name, `${a.description}${a.required ? c.dim(' (required)') : ''}`]),
        c,
      ),
    )
  }
  const flags = Object.entries(commandFlags(command))
  if (flags.length) {
    lines.push('', c.yellow('Options:'))
    lines.push(
      ...columns(
        flags.map(([name, flag]) => [
          flagLabel(name, flag),
          `${flag.description}${flag.default !== undefined ? c.dim(` (default: ${String(flag.default)})`) : ''}`,
        ]),
        c,
      ),
    )
  }
  lines.push('', c.yellow('Global options:'), ...columns(GLOBAL_OPTIONS, c))
  const examples = command.examples?.length ? command.examples : [usageLine(command).replace(/ \[options\]$/, '')]
  lines.push('', c.yellow('Examples:'), ...examples.map((e) => `  ${e.startsWith('kiln ') ? e : `kiln ${e}`}`))
  return lines.join('\n')
}

/**
 * What `kiln --help` says besides the commands.
 *
 * @example
 * ```ts
 * const options: OverviewOptions = { version: kilnVersion(), note: 'More commands appear inside an application.' }
 * ```
 */
export interface OverviewOptions {
  version: string
  /** Shown after the list, e.g. that more commands appear inside an application. */
  note?: string
  /** `kiln list make`: only that namespace's commands are listed (without `help` and `list`). */
  namespace?: string
}

/**
 * `kiln --help`: every command, grouped by namespace (`db:`, `make:`,
 * `migrate:`...) like artisan's and ace's lists.
 *
 * @example
 * ```ts
 * process.stdout.write(overview(app.commands.all(), colors, { version: kilnVersion() }) + '\n')
 * ```
 */
export function overview(commands: CommandDefinition[], c: Colors, options: OverviewOptions): string {
  const builtIn = [
    { name: 'help', description: 'Show the help of a command: its arguments, options and examples' },
    { name: 'list', description: 'List the commands (kiln list <namespace>: only those of one namespace)' },
  ]
  const all = [...commands, ...(options.namespace === undefined ? builtIn : [])].sort((a, b) => a.name.localeCompare(b.name))
  const groups = new Map<string, Array<{ name: string; description: string }>>()
  for (const command of all) {
    const namespace = command.name.includes(':') ? command.name.slice(0, command.name.indexOf(':')) : ''
    groups.set(namespace, [...(groups.get(namespace) ?? []), command])
  }
  const width = Math.max(...all.map((command) => command.name.length))
  const lines = [`Kiln ${c.green(options.version)}`, '', c.yellow('Usage:'), '  kiln <command> [arguments] [options]', '', c.yellow('Options:')]
  lines.push(...columns([['-v, --version', "Show Kiln's version"], ...GLOBAL_OPTIONS], c), '', c.yellow('Available commands:'))
  for (const namespace of [...groups.keys()].sort()) {
    if (namespace) lines.push(` ${c.yellow(namespace)}`)
    for (const command of groups.get(namespace)!) lines.push(`  ${c.green(command.name.padEnd(width))}  ${command.description}`)
  }
  lines.push('', `Run ${c.cyan('kiln help <command>')} (or ${c.cyan('kiln <command> --help')}) for its arguments, options and examples.`)
  if (options.note) lines.push('', options.note)
  return lines.join('\n')
}

function columns(rows: Array<[string, string]>, c: Colors): string[] {
  const width = Math.max(...rows.map(([left]) => left.length))
  return rows.map(([left, right]) => `  ${c.green(left.padEnd(width))}  ${right}`)
}
