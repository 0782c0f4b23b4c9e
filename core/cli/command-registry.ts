import { KilnError } from '../support/errors.ts'
import type { CommandDefinition } from './define-command.ts'

/**
 * The registry of CLI commands that the kernel and plugins fill.
 *
 * @example
 * ```ts
 * app.commands.register(defineCommand({ name: 'hello', description: 'Say hello', run: ({ info }) => info('hi') }))
 * app.commands.get('hello')
 * ```
 */
export class CommandRegistry {
  private readonly commands = new Map<string, CommandDefinition>()
  /** Commands known by name whose definition loads on demand (see {@link registerLazy}). */
  private readonly pending = new Map<string, () => Promise<CommandDefinition>>()

  /** Adds a command; a second command with the same name replaces the first. @example `registry.register(cmd)` */
  register(command: CommandDefinition): this {
    checkName(command.name)
    this.pending.delete(command.name)
    this.commands.set(command.name, command)
    return this
  }

  /**
   * Adds a command by name, its definition (and the modules it imports)
   * loaded only when {@link load} asks for it: when it runs, or when every
   * command is listed. A later command of the same name replaces it.
   *
   * @example
   * ```ts
   * registry.registerLazy('report:send', async () => (await import('./send-report.ts')).sendReportCommand)
   * ```
   */
  registerLazy(name: string, load: () => Promise<CommandDefinition>): this {
    checkName(name)
    this.commands.delete(name)
    this.pending.set(name, load)
    return this
  }

  /**
   * Loads the lazily registered command `name`, or all of them when no name
   * is given; {@link get} and {@link all} then include them.
   *
   * @example
   * ```ts
   * await registry.load('serve')
   * registry.get('serve')!.run(ctx)
   * ```
   */
  async load(name?: string): Promise<void> {
    const names = name === undefined ? [...this.pending.keys()] : this.pending.has(name) ? [name] : []
    await Promise.all(
      names.map(async (each) => {
        const load = this.pending.get(each)!
        const command = await load()
        // Unless something replaced it meanwhile.
        if (this.pending.get(each) === load) this.register(command)
      }),
    )
  }

  /** True when a command has that name, loaded or not. @example `registry.has('migrate')` */
  has(name: string): boolean {
    return this.commands.has(name) || this.pending.has(name)
  }

  /** Every command's name, loaded or not, sorted. @example `registry.names()` */
  names(): string[] {
    return [...this.commands.keys(), ...this.pending.keys()].sort((a, b) => a.localeCompare(b))
  }

  /**
   * The command with that name, if any; a lazily registered one only after
   * {@link load}. @example `registry.get('migrate')`
   */
  get(name: string): CommandDefinition | undefined {
    return this.commands.get(name)
  }

  /**
   * Every command, sorted by name; lazily registered ones only after
   * {@link load}. @example `registry.all().map((c) => c.name)`
   */
  all(): CommandDefinition[] {
    return [...this.commands.values()].sort((a, b) => a.name.localeCompare(b.name))
  }
}

function checkName(name: string): void {
  if (!/^[a-z][a-z0-9-]*(:[a-z0-9-]+)*$/.test(name)) throw new KilnError(`Invalid command name "${name}".`)
}
