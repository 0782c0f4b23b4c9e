import type { CommandDefinition } from '../define-command.ts'

/**
 * A kernel command as the CLI knows it before loading it: its name, whether
 * it runs without a booted app, and how to load its definition.
 */
export interface CoreCommand {
  name: string
  /** Mirrors the definition's `needsApp: false` (a test checks they agree): such commands run where no app boots. */
  standalone: boolean
  load(): Promise<CommandDefinition>
}

// The kernel's commands and generators are some 35 modules (the dev supervisor, `kiln new`'s installer, the stubs...),
// and a process runs one command: each loads when it runs or is listed, so `kiln serve` loads only `serve`.
const core = (name: string, standalone: boolean, load: () => Promise<CommandDefinition>): CoreCommand => ({ name, standalone, load })
const generator = (name: string) => core(name, true, async () => (await import('../generators/index.ts')).generatorCommands.find((c) => c.name === name)!)

/**
 * The kernel's own commands, each loaded on demand.
 *
 * @example
 * ```ts
 * const serve = await coreCommands.find((c) => c.name === 'serve')!.load()
 * ```
 */
export const coreCommands: CoreCommand[] = [
  core('serve', false, async () => (await import('./serve.ts')).serveCommand),
  core('key:generate', true, async () => (await import('./key-generate.ts')).keyGenerateCommand),
  core('route:list', false, async () => (await import('./route-list.ts')).routeListCommand),
  core('vendor:publish', false, async () => (await import('./vendor-publish.ts')).vendorPublishCommand),
  core('new', true, async () => (await import('./new-app.ts')).newCommand),
  core('dev', true, async () => (await import('./dev.ts')).devCommand),
  core('build', true, async () => (await import('./build-app.ts')).buildCommand),
  core('check', false, async () => (await import('./check.ts')).checkCommand),
  core('repl', false, async () => (await import('./repl.ts')).replCommand),
  core('schedule:run', false, async () => (await import('../../schedule/schedule-commands.ts')).scheduleRunCommand),
  core('schedule:work', false, async () => (await import('../../schedule/schedule-commands.ts')).scheduleWorkCommand),
  core('schedule:list', false, async () => (await import('../../schedule/schedule-commands.ts')).scheduleListCommand),
  ...[
    'make:controller',
    'make:model',
    'make:migration',
    'make:factory',
    'make:seeder',
    'make:policy',
    'make:provider',
    'make:middleware',
    'make:job',
    'make:event',
    'make:listener',
    'make:command',
    'make:test',
    'make:guard',
    'make:broadcaster',
  ].map(generator),
]
