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

  /** Adds a command; a second command with the same name replaces the first. @example `registry.register(cmd)` */
  register(command: CommandDefinition): this {
    if (!/^[a-z][a-z0-9-]*(:[a-z0-9-]+)*$/.test(command.name)) throw new KilnError(`Invalid command name "${command.name}".`)
    this.commands.set(command.name, command)
    return this
  }

  /** The command with that name, if any. @example `registry.get('migrate')` */
  get(name: string): CommandDefinition | undefined {
    return this.commands.get(name)
  }

  /** Every command, sorted by name. @example `registry.all().map((c) => c.name)` */
  all(): CommandDefinition[] {
    return [...this.commands.values()].sort((a, b) => a.name.localeCompare(b.name))
  }
}
