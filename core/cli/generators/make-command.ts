import { CommandError } from '../define-command.ts'
import { appFile, defineGenerator, rootFrom, type PlannedFile } from './define-generator.ts'
import { className, kebabCase } from './names.ts'

/**
 * `kiln make:command SendReport [--command=reports:send]`:
 * `app/commands/send-report.ts` exporting `sendReportCommand`, named
 * `app:send-report` unless `--command` says otherwise, and its test.
 * Commands in `app/commands/` are found when the app boots.
 *
 * @example
 * ```sh
 * kiln make:command SendReport --command=reports:send   # kiln reports:send
 * ```
 */
export const makeCommandCommand = defineGenerator({
  name: 'make:command',
  description: 'Create a CLI command',
  argument: { name: 'name', description: 'Its name, e.g. SendReport' },
  examples: ['kiln make:command SendReport', 'kiln make:command SendReport --command=reports:send'],
  flags: { command: { type: 'string', description: 'The name it is run by (default app:<name>), e.g. reports:send' } },
  writesTests: true,
  plan({ given, flags, withTest }) {
    const name = className(given, { suffix: 'Command', label: 'command' })
    const commandName = typeof flags.command === 'string' ? flags.command : `app:${kebabCase(name.baseName)}`
    if (!/^[a-z][a-z0-9-]*(:[a-z0-9-]+)*$/.test(commandName)) {
      throw new CommandError(`"${commandName}" is not a valid command name: lower-case words, with ":" between parts (reports:send).`)
    }
    const fileName = kebabCase(name.baseName)
    const file = appFile('app/commands', name.folders, fileName, '.ts')
    const vars = { camelName: name.camelName, commandName }
    const files: PlannedFile[] = [{ path: file, stub: 'command', vars }]
    if (withTest) {
      const test = appFile('tests/commands', name.folders, fileName, '.test.ts')
      files.push({ path: test, stub: 'command.test', vars: { ...vars, appRoot: rootFrom(test) } })
    }
    return files
  },
  next: (files) => [`Run it with: kiln ${files[0]!.vars.commandName}`],
})
