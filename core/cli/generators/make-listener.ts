import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { appFile, defineGenerator, importPath, rootFrom, type PlannedFile } from './define-generator.ts'
import { planEvent } from './make-event.ts'
import { className } from './names.ts'

/**
 * `kiln make:listener SendShipmentEmail --event=OrderShipped`: a listener
 * class in `app/listeners/` whose `handle()` takes the event (the event
 * class is created too when it does not exist yet), and a test that
 * dispatches the event to it. The test is left out when the event's
 * constructor takes arguments the test could not invent.
 *
 * @example
 * ```sh
 * kiln make:listener SendShipmentEmail --event=OrderShipped
 * ```
 */
export const makeListenerCommand = defineGenerator({
  name: 'make:listener',
  description: 'Create an event listener class',
  argument: { name: 'name', description: 'The class name, e.g. SendShipmentEmail' },
  examples: ['kiln make:listener SendShipmentEmail --event=OrderShipped'],
  flags: { event: { type: 'string', short: 'e', description: 'The event class it handles, e.g. OrderShipped' } },
  writesTests: true,
  plan({ root, given, flags, withTest }) {
    const name = className(given, { label: 'listener' })
    const file = appFile('app/listeners', name.folders, name.fileName, '.ts')
    if (typeof flags.event !== 'string') {
      return [
        { path: file, stub: 'listener', vars: { className: name.className, eventClass: 'Event', eventImport: "import type { Event } from 'kiln-framework'" } },
      ]
    }
    const event = planEvent(className(flags.event, { label: 'event' }))
    const eventClass = event.vars.className!
    const eventExists = existsSync(join(root, event.path))
    const vars = { className: name.className, eventClass, eventImport: `import type { ${eventClass} } from '${importPath(file, event.path)}'` }
    const files: PlannedFile[] = [{ path: file, stub: 'listener', vars }]
    if (!eventExists) files.push(event)
    const eventTakesNoArguments = !eventExists || !takesArguments(readFileSync(join(root, event.path), 'utf8'))
    if (withTest && eventTakesNoArguments) {
      const test = appFile('tests/listeners', name.folders, name.fileName, '.test.ts')
      files.push({
        path: test,
        stub: 'listener.test',
        vars: { ...vars, importPath: importPath(test, file), eventImportPath: importPath(test, event.path), appRoot: rootFrom(test) },
      })
    }
    return files
  },
  next(files, { flags, withTest }) {
    const { className: listener, eventClass } = files[0]!.vars as { className: string; eventClass: string }
    const lines = [`Wire it in config/events.ts: listen: [[${eventClass}, [${listener}]]]`]
    if (withTest && typeof flags.event === 'string' && !files.some((f) => f.stub === 'listener.test')) {
      lines.push(`No test written: ${eventClass}'s constructor takes arguments, which a generated test cannot make up.`)
    }
    return lines
  },
})

/** True when the event class declares a constructor with parameters (comments, such as the stub's hint, aside). */
function takesArguments(source: string): boolean {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '')
  return /\bconstructor\s*\(\s*[^)\s]/.test(code)
}
