import { appFile, defineGenerator, rootFrom } from './define-generator.ts'
import { className, kebabCase } from './names.ts'

/**
 * `kiln make:test PostApi`: `tests/post-api.test.ts`, an ava test that boots
 * the app with `createTestApp` and sends a request with `TestClient`.
 *
 * @example
 * ```sh
 * kiln make:test Admin/Dashboard   # tests/admin/dashboard.test.ts
 * ```
 */
export const makeTestCommand = defineGenerator({
  name: 'make:test',
  description: 'Create a test file',
  argument: { name: 'name', description: 'What it tests, e.g. PostApi or Admin/Dashboard' },
  examples: ['kiln make:test PostApi', 'kiln make:test Admin/Dashboard'],
  plan({ given }) {
    const name = className(given, { suffix: 'Test', label: 'test' })
    const test = appFile('tests', name.folders, kebabCase(name.baseName), '.test.ts')
    const title = `${kebabCase(name.baseName).replace(/-/g, ' ')}: the home page answers`
    return [{ path: test, stub: 'test', vars: { title, appRoot: rootFrom(test) } }]
  },
  next: () => ['Run it with: npx ava'],
})
