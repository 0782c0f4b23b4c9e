import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Application } from '../application/application.ts'
import type { CommandDefinition } from './define-command.ts'
import { moduleFiles } from '../support/module-files.ts'

/**
 * Registers the commands an app keeps in `app/commands/`: every export made
 * by `defineCommand` in every module there (tests aside), the way models are
 * found in `app/models/`. `kiln make:command` writes files there.
 *
 * @example
 * ```ts
 * await discoverCommands(app) // app/commands/send-report.ts → kiln app:send-report
 * ```
 */
export async function discoverCommands(app: Application, folder = 'app/commands'): Promise<number> {
  const dir = join(app.root, folder)
  if (!existsSync(dir)) return 0
  let count = 0
  for (const file of moduleFiles(dir)) {
    const exported = (await import(pathToFileURL(file).href)) as Record<string, unknown>
    for (const value of Object.values(exported)) {
      if (isCommand(value)) {
        app.commands.register(value)
        count++
      }
    }
  }
  return count
}

function isCommand(value: unknown): value is CommandDefinition {
  const candidate = value as Partial<CommandDefinition> | null
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.name === 'string' &&
    typeof candidate.description === 'string' &&
    typeof candidate.run === 'function'
  )
}
