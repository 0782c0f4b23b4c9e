import { appFile, defineGenerator, importPath, rootFrom, type PlannedFile } from './define-generator.ts'
import { className } from './names.ts'

/**
 * `kiln make:middleware EnsureAdmin`: `app/middleware/ensure-admin.ts`
 * exporting `ensureAdmin`, a `defineMiddleware` function, and its test.
 *
 * @example
 * ```sh
 * kiln make:middleware EnsureAdmin   # Route.get(...).middleware([ensureAdmin])
 * ```
 */
export const makeMiddlewareCommand = defineGenerator({
  name: 'make:middleware',
  description: 'Create a middleware',
  argument: { name: 'name', description: 'Its name, e.g. EnsureAdmin' },
  examples: ['kiln make:middleware EnsureAdmin'],
  writesTests: true,
  plan({ given, withTest }) {
    const name = className(given, { label: 'middleware' })
    const file = appFile('app/middleware', name.folders, name.fileName, '.ts')
    const vars = { className: name.className, camelName: name.camelName, fileName: name.fileName }
    const files: PlannedFile[] = [{ path: file, stub: 'middleware', vars }]
    if (withTest) {
      const test = appFile('tests/middleware', name.folders, name.fileName, '.test.ts')
      files.push({ path: test, stub: 'middleware.test', vars: { ...vars, importPath: importPath(test, file), appRoot: rootFrom(test) } })
    }
    return files
  },
  next: (files) => [`Use it on a route: .middleware([${files[0]!.vars.camelName}])`],
})
