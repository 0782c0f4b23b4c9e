import { defineCommand as defineCittyCommand, runCommand, type ArgsDef, type ParsedArgs } from 'citty'
import { CommandError, type CommandContext, type CommandDefinition } from './define-command.ts'
import { commandFlags, usageLine } from './help.ts'
import { nearest } from './suggest.ts'

/**
 * A mistake in how a command was typed: one line, exit code 1.
 *
 * @example
 * ```ts
 * throw new UsageError('Missing argument <name>. Usage: kiln make:channel <name> [options]')
 * ```
 */
export class UsageError extends CommandError {}

/**
 * A command's input once parsed and checked.
 *
 * @example
 * ```ts
 * const input: CommandInput = { args: ['OrderChannel'], flags: { force: true } }
 * ```
 */
export interface CommandInput {
  /** Positional arguments, in order. */
  args: string[]
  /** Flags by their declared name, defaults applied, numbers as numbers. */
  flags: CommandContext['flags']
}

/**
 * Parses `rawArgs` for a Kiln command with citty and runs `execute` with the
 * checked input; resolves to its exit code. The Kiln definition is adapted to
 * a citty command (flags become citty args, `short` an alias, positionals
 * citty positionals); citty's lifecycle runs it. Throws `UsageError` for an
 * unknown option, a wrong type, a missing or an unexpected argument.
 *
 * @example
 * ```ts
 * const code = await runDefinition(migrateCommand, ['--step=2'], async ({ flags }) => (console.log(flags.step), 0))
 * ```
 */
export async function runDefinition(
  command: CommandDefinition,
  rawArgs: string[],
  execute: (input: CommandInput) => Promise<number>,
  options: { commandNames?: string[] | (() => string[]) } = {},
): Promise<number> {
  // A function: the names are only read to word an error, and sorting them costs a start some 5 ms (ICU's collator).
  const names = options.commandNames
  const commandNames = typeof names === 'function' ? names : () => names ?? []
  const definition = defineCittyCommand({
    meta: { name: command.name, description: command.description },
    args: cittyArgs(command),
    run: ({ args }) => execute(checkedInput(command, args, rawArgs, commandNames)),
  })
  const { result } = await runCommand(definition, { rawArgs })
  return result as number
}

// Positionals are keyed `<name>` so that citty's copy of a positional never
// shadows a mistyped `--name` flag in the parsed result (citty stores both
// under the same key otherwise).
const positionalKey = (name: string) => `<${name}>`

function cittyArgs(command: CommandDefinition): ArgsDef {
  const args: ArgsDef = {}
  // Kiln checks required positionals itself, to answer with its one-line usage rather than citty's message.
  for (const arg of command.args ?? []) args[positionalKey(arg.name)] = { type: 'positional', description: arg.description, required: false }
  for (const [name, flag] of Object.entries(commandFlags(command))) {
    const alias = flag.short ? [flag.short] : undefined
    if (flag.type === 'boolean') args[name] = { type: 'boolean', description: flag.description, alias, default: flag.default as boolean | undefined }
    // citty has no number type: numbers are read as strings and checked below.
    else
      args[name] = {
        type: 'string',
        description: flag.description,
        alias,
        default: flag.default === undefined ? undefined : String(flag.default),
        valueHint: flag.type,
      }
  }
  return args
}

// citty parses leniently (util.parseArgs with strict: false, so that it can
// offer `--no-<flag>` and camelCase aliases): an unknown flag lands in the
// result like a known one, a number is any string. Kiln checks both here,
// since a typo such as `--forse` on a destructive command must not pass unseen.
function checkedInput(command: CommandDefinition, parsed: ParsedArgs, rawArgs: string[], commandNames: () => string[]): CommandInput {
  const flags = commandFlags(command)
  const known = new Set<string>()
  for (const [name, flag] of Object.entries(flags)) {
    known.add(camel(name))
    if (flag.short) known.add(flag.short)
  }
  const positionals = new Set((command.args ?? []).map((a) => positionalKey(a.name)))
  for (const key of Object.keys(parsed)) {
    if (key === '_' || positionals.has(key) || known.has(key) || known.has(camel(key))) continue
    const typed = rawArgs.find((a) => a === `--no-${key}` || a.startsWith(`--no-${key}=`)) ? `--no-${key}` : key.length === 1 ? `-${key}` : `--${key}`
    const suggestion = nearest(key, Object.keys(flags))
    throw new UsageError(
      `Unknown option "${typed}" for "${command.name}".${suggestion ? ` Did you mean "--${suggestion}"?` : ''} Run \`kiln help ${command.name}\` for its options.`,
    )
  }

  const values: CommandContext['flags'] = {}
  for (const [name, flag] of Object.entries(flags)) {
    const raw = parsed[name] as string | boolean | undefined
    // `--no-<flag>` (citty's negation) on a string or number flag leaves it unset.
    if (raw === undefined || (raw === false && flag.type !== 'boolean')) continue
    if (flag.type === 'boolean') {
      values[name] = Boolean(raw)
      continue
    }
    const value = String(raw)
    if (value === '' && !rawArgs.some((a) => a.startsWith(`--${name}=`)))
      throw new UsageError(`--${name} needs a value: --${name}=<${flag.type}>. Usage: ${usageLine(command)}`)
    if (flag.type === 'number') {
      const n = Number(value)
      if (value.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--${name} must be a number, got "${value}". Usage: ${usageLine(command)}`)
      values[name] = n
    } else values[name] = value
  }

  const args = parsed._.map(String)
  const declared = command.args ?? []
  const missing = declared.find((a, i) => a.required && args[i] === undefined)
  if (missing) throw new UsageError(`Missing argument <${missing.name}>. Usage: ${usageLine(command)}`)
  if (args.length > declared.length) {
    const extra = args[declared.length]!
    const takes = declared.length === 0 ? 'takes no arguments' : `takes ${declared.length} argument${declared.length === 1 ? '' : 's'}`
    // `kiln migrate fresh` would otherwise read as a typo of `migrate:fresh`: say so.
    const meant = commandNames().includes(`${command.name}:${extra}`) ? ` Did you mean "${command.name}:${extra}"?` : ''
    throw new UsageError(`"${command.name}" ${takes}, got "${extra}".${meant} Usage: ${usageLine(command)}`)
  }
  return { args, flags: values }
}

function camel(name: string): string {
  return name.replace(/[-_]+([a-zA-Z0-9])/g, (_, ch: string) => ch.toUpperCase())
}
