import { appFile, defineGenerator, importPath, rootFrom, type PlannedFile } from './define-generator.ts'
import { className, kebabCase } from './names.ts'

/**
 * `kiln make:broadcaster Audit`: `app/broadcasters/audit-broadcaster.ts`, a
 * `SigningBroadcaster` and, as its default export, the driver plugin that
 * registers it (`Broadcast.extend`) as the `audit` driver; and its test.
 *
 * @example
 * ```sh
 * kiln make:broadcaster Audit   # config/broadcasting.ts: connections: { audit: { driver: 'audit' } }
 * ```
 */
export const makeBroadcasterCommand = defineGenerator({
  name: 'make:broadcaster',
  description: 'Create a broadcast driver',
  argument: { name: 'name', description: 'The driver name, e.g. Audit' },
  examples: ['kiln make:broadcaster Audit'],
  writesTests: true,
  plan({ given, withTest }) {
    const name = className(given, { suffix: 'Broadcaster', label: 'broadcaster' })
    const file = appFile('app/broadcasters', name.folders, name.fileName, '.ts')
    const vars = { className: name.className, driverName: kebabCase(name.baseName) }
    const files: PlannedFile[] = [{ path: file, stub: 'broadcaster', vars }]
    if (withTest) {
      const test = appFile('tests/broadcasters', name.folders, name.fileName, '.test.ts')
      files.push({ path: test, stub: 'broadcaster.test', vars: { ...vars, importPath: importPath(test, file), appRoot: rootFrom(test) } })
    }
    return files
  },
  next: (files) => {
    const { driverName } = files[0]!.vars as { driverName: string }
    return [`List its default export in config/app.ts plugins, then in config/broadcasting.ts: connections: { '${driverName}': { driver: '${driverName}' } }`]
  },
})
