import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import type { Writable } from 'node:stream'
import type { Application } from '../application/application.ts'
import { createApp } from '../application/create-app.ts'
import { runWithApp } from '../application/current-app.ts'
import { coreCommands } from './commands/index.ts'
import { CommandError, type CommandContext, type CommandDefinition } from './define-command.ts'
import { formatTable } from './format.ts'
import { nearest } from './suggest.ts'

/** Where the CLI reads and writes; tests pass their own. */
export interface CliIo {
  cwd?: string
  env?: Record<string, string | undefined>
  stdout?: Writable
  stderr?: Writable
}

/**
 * Runs the `kiln` CLI in-process and resolves to the exit code. `bin/kiln.js`
 * calls it with `process.argv.slice(2)`.
 *
 * @example
 * ```ts
 * const code = await runCli(['route:list', '--json'], { cwd: '/srv/app' })
 * ```
 */
export async function runCli(argv: string[], io: CliIo = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout
  const stderr = io.stderr ?? process.stderr
  const out = (line: string) => void stdout.write(`${line}\n`)
  const err = (line: string) => void stderr.write(`${line}\n`)
  const cwd = io.cwd ?? process.cwd()
  const verbose = argv.includes('--verbose')
  const rootFlag = argv.find((a) => a.startsWith('--root='))?.slice(7)
  const args = argv.filter((a) => a !== '--verbose' && !a.startsWith('--root='))
  const root = resolve(cwd, rootFlag ?? io.env?.KILN_ROOT ?? process.env.KILN_ROOT ?? '.')
  const name = args[0] && !args[0].startsWith('-') ? args[0] : undefined
  const wantsHelp = args.includes('--help') || args.includes('-h')

  let app: Application | undefined
  let bootError: unknown
  const needsNoApp = name !== undefined && coreCommands.some((c) => c.name === name && c.needsApp === false)
  if (existsSync(join(root, 'config')) && !(needsNoApp && !wantsHelp)) {
    try {
      app = await createApp({ root, env: io.env })
    } catch (error) {
      bootError = error
    }
  }
  const commands = app ? app.commands.all() : coreCommands.filter((c) => c.needsApp === false)
  const close = async () => app?.close().catch(() => {})

  if (!name) {
    if (bootError) err(`The application at ${root} did not boot: ${(bootError as Error).message}\nOnly commands that need no app are listed.\n`)
    out(helpText(commands))
    await close()
    return wantsHelp || args.length === 0 ? (bootError ? 1 : 0) : 1
  }

  const command = commands.find((c) => c.name === name) ?? coreCommands.find((c) => c.name === name && c.needsApp === false)
  if (!command) {
    await close()
    if (bootError) {
      err(`The application at ${root} did not boot: ${(bootError as Error).message}`)
      return 1
    }
    const suggestion = nearest(name, commands.map((c) => c.name))
    err(`Unknown command "${name}".${suggestion ? ` Did you mean "${suggestion}"?` : ''} Run \`kiln --help\` for the list.`)
    return 1
  }
  if (wantsHelp) {
    out(commandHelp(command))
    await close()
    return 0
  }
  if (!app && command.needsApp !== false) {
    err(bootError ? `The application at ${root} did not boot: ${(bootError as Error).message}` : `No Kiln application at ${root} (no config/ folder).`)
    return 1
  }

  let parsed: { values: Record<string, unknown>; positionals: string[] }
  try {
    parsed = parseFlags(command, args.slice(1))
  } catch (error) {
    err(`${(error as Error).message}\nRun \`kiln ${command.name} --help\` for its flags.`)
    await close()
    return 1
  }
  const missing = (command.args ?? []).find((a, i) => a.required && parsed.positionals[i] === undefined)
  if (missing) {
    err(`Missing argument <${missing.name}>. Usage: ${usage(command)}`)
    await close()
    return 1
  }

  const ctx: CommandContext = {
    app: app ?? noApp(root),
    root,
    cwd,
    args: parsed.positionals,
    flags: parsed.values as CommandContext['flags'],
    info: out,
    warn: err,
    error: err,
    table: (rows) => out(formatTable(rows)),
  }
  try {
    const run = () => command.run(ctx)
    const code = app ? await runWithApp(app, run) : await run()
    return typeof code === 'number' ? code : 0
  } catch (error) {
    if (error instanceof CommandError) {
      err(error.message)
      return error.exitCode
    }
    err(`Error: ${(error as Error)?.message ?? String(error)}`)
    if (verbose && error instanceof Error && error.stack) err(error.stack)
    return 1
  } finally {
    if (!command.longRunning) await close()
  }
}

function parseFlags(command: CommandDefinition, argv: string[]): { values: Record<string, unknown>; positionals: string[] } {
  const options: ParseArgsConfig['options'] = {}
  for (const [flag, def] of Object.entries(command.flags ?? {})) {
    options[flag] = { type: def.type === 'boolean' ? 'boolean' : 'string', ...(def.short ? { short: def.short } : {}) }
  }
  const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true })
  const out: Record<string, unknown> = {}
  for (const [flag, def] of Object.entries(command.flags ?? {})) {
    const raw = (values as Record<string, unknown>)[flag]
    if (raw === undefined) {
      if (def.default !== undefined) out[flag] = def.default
      continue
    }
    if (def.type === 'number') {
      const n = Number(raw)
      if (raw === '' || !Number.isFinite(n)) throw new Error(`--${flag} must be a number, got "${String(raw)}".`)
      out[flag] = n
    } else out[flag] = raw
  }
  return { values: out, positionals }
}

function helpText(commands: CommandDefinition[]): string {
  const groups = new Map<string, CommandDefinition[]>()
  for (const c of commands) {
    const ns = c.name.includes(':') ? c.name.split(':')[0]! : ''
    groups.set(ns, [...(groups.get(ns) ?? []), c])
  }
  const width = Math.max(...commands.map((c) => c.name.length), 8)
  const lines = ['Kiln', '', 'Usage: kiln <command> [flags]    kiln <command> --help', '', 'Commands:']
  for (const ns of [...groups.keys()].sort()) {
    if (ns) lines.push(` ${ns}`)
    for (const c of groups.get(ns)!) lines.push(`  ${c.name.padEnd(width)}  ${c.description}`)
  }
  return lines.join('\n')
}

function usage(command: CommandDefinition): string {
  const args = (command.args ?? []).map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' ')
  return `kiln ${command.name}${args ? ` ${args}` : ''}${command.flags && Object.keys(command.flags).length ? ' [flags]' : ''}`
}

function commandHelp(command: CommandDefinition): string {
  const lines = [command.description, '', `Usage: ${usage(command)}`]
  if (command.args?.length) {
    lines.push('', 'Arguments:')
    for (const a of command.args) lines.push(`  ${a.name.padEnd(16)}  ${a.description}${a.required ? ' (required)' : ''}`)
  }
  if (command.flags && Object.keys(command.flags).length) {
    lines.push('', 'Flags:')
    for (const [flag, def] of Object.entries(command.flags)) {
      const label = `${def.short ? `-${def.short}, ` : ''}--${flag}${def.type === 'boolean' ? '' : `=<${def.type}>`}`
      lines.push(`  ${label.padEnd(22)}  ${def.description}${def.default !== undefined ? ` (default: ${String(def.default)})` : ''}`)
    }
  }
  return lines.join('\n')
}

function noApp(root: string): Application {
  return new Proxy({} as Application, {
    get() {
      throw new CommandError(`This command needs a booted application, and none boots at ${root}.`)
    },
  })
}
