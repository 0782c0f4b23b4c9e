import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Writable } from 'node:stream'
import type { Application } from '../application/application.ts'
import { createApp } from '../application/create-app.ts'
import { runWithApp } from '../application/current-app.ts'
import { errorText, noAppHint } from './app-hints.ts'
import { colorsFor } from './colors.ts'
import { runDefinition, type CommandInput } from './command-input.ts'
import { coreCommands } from './commands/index.ts'
import { CommandError, type CommandContext, type CommandDefinition } from './define-command.ts'
import { formatTable } from './format.ts'
import { globalFlags } from './global-flags.ts'
import { envOption } from './env-option.ts'
import { commandHelp, kilnVersion, overview } from './help.ts'
import { nearest } from './suggest.ts'

/**
 * Where the CLI reads and writes; tests pass their own.
 *
 * @example
 * ```ts
 * const io: CliIo = { cwd: '/srv/app', env: { APP_ENV: 'test', NO_COLOR: '1' } }
 * ```
 */
export interface CliIo {
  cwd?: string
  /**
   * Variables for the application, on top of `process.env`. When given, the
   * CLI also reads its own switches here instead of `process.env`:
   * `NO_COLOR`, `FORCE_COLOR`.
   */
  env?: Record<string, string | undefined>
  stdout?: Writable
  stderr?: Writable
}

/**
 * Runs the `kiln` CLI in-process and resolves to the exit code: 0 on
 * success, 1 for a mistake on the command line, a missing or broken
 * application, or a failed command. `bin/kiln.js` calls it with
 * `process.argv.slice(2)`.
 *
 * @example
 * ```ts
 * const code = await runCli(['route:list', '--json'], { cwd: '/srv/app' })
 * ```
 */
export async function runCli(argv: string[], io: CliIo = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout
  const stderr = io.stderr ?? process.stderr
  const flags = globalFlags(argv)
  // --ansi and --no-ansi win over the streams and NO_COLOR/FORCE_COLOR, as artisan's and ace's do.
  const colorEnv = flags.ansi === undefined ? (io.env ?? process.env) : flags.ansi ? { FORCE_COLOR: '1' } : { NO_COLOR: '1' }
  const colors = colorsFor(stdout, colorEnv)
  const errColors = colorsFor(stderr, colorEnv)
  // --quiet: nothing on stdout and no warnings; errors still go to stderr.
  const out = flags.quiet ? () => {} : (line: string) => void stdout.write(`${line}\n`)
  const err = (line: string) => void stderr.write(`${line}\n`)
  const fail = (message: string) => (err(errColors.red(message)), 1)
  const cwd = io.cwd ?? process.cwd()

  if (flags.root === '') return fail('--root needs a folder: --root=<dir>.')
  if (flags.env === '') return fail('--env needs an environment name: --env=<name> (e.g. --env=staging).')
  if (flags.version) return (out(`Kiln ${kilnVersion()}`), 0)
  const root = resolve(cwd, flags.root ?? io.env?.KILN_ROOT ?? process.env.KILN_ROOT ?? '.')
  let appEnv = io.env
  if (flags.env !== undefined) {
    try {
      appEnv = envOption(root, flags.env, io.env)
    } catch (error) {
      return fail((error as Error).message)
    }
  }
  // The command is picked here, not by citty's subCommands: the list depends on whether an app is here and boots,
  // and citty's "Unknown command" neither suggests the nearest name nor keeps colour off a pipe.
  let name: string | undefined = flags.rest[0]
  let rest = flags.rest.slice(1)
  let help = flags.help
  let namespace: string | undefined
  if (name === 'help') {
    help = true
    name = rest[0]
    rest = rest.slice(1)
    if (name === 'list') return (out(commandHelp(LIST_HELP, colors)), 0)
  } else if (name === 'list' && help) {
    return (out(commandHelp(LIST_HELP, colors)), 0)
  } else if (name === 'list') {
    // `kiln list [namespace]`: artisan's and ace's name for the list that `kiln` alone prints.
    namespace = rest[0]
    rest = rest.slice(1)
    if (rest.length) return fail(`"list" takes at most one namespace, got "${rest.join(' ')}". Usage: kiln list [namespace]`)
    name = undefined
  }
  if (name?.startsWith('-')) return fail(`Unknown option "${name}". Run \`kiln --help\` for the options and commands.`)

  // Commands that need no app run without booting one, so `key:generate` works where boot fails for want of a key.
  const standalone = await coreCommands.find((c) => c.name === name && c.standalone)?.load()
  const hasApp = existsSync(join(root, 'config'))
  let app: Application | undefined
  let bootError: unknown
  if (hasApp && !standalone) {
    try {
      app = await createApp({ root, env: appEnv })
    } catch (error) {
      bootError = error
    }
  }
  const bootFailure = () => `The application in ${root} did not boot: ${errorText(bootError)}${flags.verbose ? '' : ' (--verbose shows the stack)'}`
  const showStack = (error: unknown) => {
    // With --verbose: the stack, then the stack of each cause (a config file's own error hides behind "Could not load").
    for (let e = error, prefix = ''; flags.verbose && e instanceof Error; e = e.cause, prefix = 'Caused by: ')
      err(errColors.dim(`${prefix}${e.stack ?? e.message}`))
  }
  let keepOpen = false
  try {
    // Commands load on demand: the one named alone when it is known, every one to list them or to suggest a name.
    const registry = app?.commands
    if (registry) await registry.load(name && registry.has(name) ? name : undefined)
    const listed = async () => (app ? app.commands.all() : await Promise.all(coreCommands.filter((c) => c.standalone).map((c) => c.load())))
    // On demand: only errors and listings read them, and the first sort by localeCompare loads ICU's collator (~5 ms).
    const names = () => (app ? app.commands.names() : coreCommands.filter((c) => c.standalone).map((c) => c.name))
    if (!name) {
      if (bootError) {
        fail(bootFailure())
        showStack(bootError)
      }
      const note =
        app || bootError
          ? undefined
          : `More commands (migrate, make:..., route:list, your plugins' commands) appear inside a Kiln application, and there is none in ${root} (no config/ folder). ${noAppHint(root)}`
      let commands = await listed()
      if (namespace !== undefined) {
        const ns = namespace.replace(/:$/, '')
        commands = commands.filter((c) => c.name.startsWith(`${ns}:`))
        if (!commands.length) {
          const namespaces = [
            ...new Set(
              names()
                .filter((n) => n.includes(':'))
                .map((n) => n.slice(0, n.indexOf(':'))),
            ),
          ].sort()
          const suggestion = nearest(ns, namespaces)
          return fail(`There are no commands in the "${ns}" namespace.${suggestion ? ` Did you mean "${suggestion}"?` : ''} Run \`kiln list\` for them all.`)
        }
      }
      out(overview(commands, colors, { version: kilnVersion(), note, namespace }))
      return bootError ? 1 : 0
    }

    const command = standalone ?? app?.commands.get(name)
    if (!command) {
      if (bootError) {
        const code = fail(bootFailure())
        showStack(bootError)
        return code
      }
      return fail(unknownCommand(name, names(), hasApp, root))
    }
    if (help) return (out(commandHelp(command, colors)), 0)

    const execute = async (input: CommandInput) => {
      refuseInProduction(command, app, Boolean(input.flags.force))
      const ctx: CommandContext = {
        app: app ?? noApp(root),
        root,
        bootApp: () => createApp({ root, env: appEnv }),
        cwd,
        args: input.args,
        flags: input.flags,
        info: out,
        warn: flags.quiet ? () => {} : (line) => err(errColors.yellow(line)),
        error: (line) => err(errColors.red(line)),
        table: (rows) => out(formatTable(rows)),
      }
      const run = () => command.run(ctx)
      const code = app ? await runWithApp(app, run) : await run()
      return typeof code === 'number' ? code : 0
    }
    try {
      const code = await runDefinition(command, rest, execute, { commandNames: names })
      // A long-running command (`serve`) closes the app itself when it stops.
      keepOpen = Boolean(command.longRunning)
      return code
    } catch (error) {
      if (error instanceof CommandError) return (err(errColors.red(error.message)), error.exitCode)
      fail(`Error: ${errorText(error)}${flags.verbose ? '' : ' (--verbose shows the stack)'}`)
      showStack(error)
      return 1
    }
  } finally {
    if (!keepOpen) await app?.close().catch(() => {})
  }
}

// `list` is the runner's own, as `help` is; this is only its help page.
const LIST_HELP: CommandDefinition = {
  name: 'list',
  description: 'List the commands, grouped by namespace',
  args: [{ name: 'namespace', description: 'Only the commands of this namespace: make, migrate, queue...' }],
  examples: ['kiln list', 'kiln list make'],
  run: () => {},
}

function unknownCommand(name: string, commandNames: string[], hasApp: boolean, root: string): string {
  const names = [...commandNames, 'help']
  const namespace = name.replace(/:$/, '')
  const inNamespace = names.filter((n) => n.startsWith(`${namespace}:`))
  if (inNamespace.length) return `Unknown command "${name}". The "${namespace}" commands are: ${inNamespace.join(', ')}.`
  const suggestion = nearest(name, names)
  if (suggestion) return `Unknown command "${name}". Did you mean "${suggestion}"?`
  if (!hasApp) return `No Kiln application in ${root} (no config/ folder), so there is no "${name}" command here. ${noAppHint(root, name)}`
  return `Unknown command "${name}". Run \`kiln --help\` for the list.`
}

function refuseInProduction(command: CommandDefinition, app: Application | undefined, force: boolean): void {
  if (!command.destructive || force || app?.environment !== 'production') return
  const what = typeof command.destructive === 'string' ? ` (it ${command.destructive})` : ''
  throw new CommandError(`Refusing to run "${command.name}" in production${what}: APP_ENV is production. Add --force to run it anyway.`)
}

function noApp(root: string): Application {
  return new Proxy({} as Application, {
    get() {
      throw new CommandError(`This command needs a booted application, and none boots at ${root}.`)
    },
  })
}
