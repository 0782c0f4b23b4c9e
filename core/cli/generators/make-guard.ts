import { appFile, defineGenerator, importPath, rootFrom, type PlannedFile } from './define-generator.ts'
import { className, kebabCase } from './names.ts'

/**
 * `kiln make:guard ApiKey`: `app/guards/api-key-guard.ts`, a `Guard` class
 * and the plugin `apiKeyGuard` that registers it as the `api-key` guard
 * driver, and a test that sends a request through `auth:api-key`.
 *
 * @example
 * ```sh
 * kiln make:guard ApiKey   # config/auth.ts: guards: { 'api-key': { driver: 'api-key', provider: 'users' } }
 * ```
 */
export const makeGuardCommand = defineGenerator({
  name: 'make:guard',
  description: 'Create an auth guard driver',
  argument: { name: 'name', description: 'The guard name, e.g. ApiKey' },
  examples: ['kiln make:guard ApiKey'],
  writesTests: true,
  plan({ given, withTest }) {
    const name = className(given, { suffix: 'Guard', label: 'guard' })
    const file = appFile('app/guards', name.folders, name.fileName, '.ts')
    const vars = { className: name.className, camelName: name.camelName, driverName: kebabCase(name.baseName) }
    const files: PlannedFile[] = [{ path: file, stub: 'guard', vars }]
    if (withTest) {
      const test = appFile('tests/guards', name.folders, name.fileName, '.test.ts')
      files.push({ path: test, stub: 'guard.test', vars: { ...vars, importPath: importPath(test, file), appRoot: rootFrom(test) } })
    }
    return files
  },
  next: (files) => {
    const { camelName, driverName } = files[0]!.vars as { camelName: string; driverName: string }
    return [`List ${camelName} in config/app.ts plugins, then in config/auth.ts: guards: { '${driverName}': { driver: '${driverName}', provider: 'users' } }`]
  },
})
