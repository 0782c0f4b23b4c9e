import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CommandError, defineCommand } from '../../core/index.ts'
import { kebab } from './registry/registry.ts'

const STUBS = fileURLToPath(new URL('./stubs/', import.meta.url))

/**
 * The stub text: the app's own copy (`stubs/<file>`, from `vendor:publish
 * --tag=stubs`) wins over Kiln's.
 */
function stub(root: string, file: string): string {
  const own = join(root, 'stubs', file)
  return readFileSync(existsSync(own) ? own : join(STUBS, file), 'utf8')
}

/**
 * `kiln make:comp TodoList` (or `Admin/UserTable`): a single-file component
 * in `app/components/` (its class with `static template = html\`…\``);
 * with `--view`, the class and a view in `resources/views/components/`;
 * with `--test`, a test in `tests/components/` that drives it through real
 * updates with the fluent assertions.
 *
 * @example
 * ```sh
 * kiln make:comp Admin/UserTable --test   # app/components/admin/user-table.ts, tests/components/admin/user-table.test.ts
 * kiln make:comp TodoList --view          # app/components/todo-list.ts, resources/views/components/todo-list.hbs
 * ```
 */
export const makeCompCommand = defineCommand({
  name: 'make:comp',
  description: 'Create a component (one file, or with --view a class and its view), and with --test its test',
  args: [{ name: 'name', description: 'The class name, e.g. TodoList or Admin/UserTable', required: true }],
  flags: {
    single: { type: 'boolean', description: 'One file: the class with its template (the default)' },
    view: { type: 'boolean', description: 'Two files: the class, and its view in resources/views/components' },
    test: { type: 'boolean', description: 'Also write a test in tests/components' },
    force: { type: 'boolean', description: 'Overwrite existing files' },
  },
  examples: ['kiln make:comp TodoList', 'kiln make:comp Admin/UserTable --test', 'kiln make:comp TodoList --view'],
  run({ app, args, flags, info }) {
    const given = args[0] ?? ''
    const parts = given.split(/[/\\.]/).filter(Boolean)
    if (parts.length === 0 || !parts.every((part) => /^[A-Z][A-Za-z0-9]*$/.test(part))) {
      throw new CommandError(`"${given}" is not a component name: use PascalCase, with "/" for folders (TodoList, Admin/UserTable).`)
    }
    if (flags.single && flags.view) throw new CommandError('Choose --single (one file) or --view (a class and its view), not both.')
    const className = parts.at(-1)!
    const path = parts.map(kebab).join('/')
    const name = parts.map(kebab).join('.')
    const testFile = `tests/components/${path}.test.ts`
    const files: Record<string, string> = flags.view
      ? {
          [`app/components/${path}.ts`]: 'component.ts.stub',
          [`resources/views/components/${path}.hbs`]: 'component.hbs.stub',
        }
      : { [`app/components/${path}.ts`]: 'component.single.ts.stub' }
    if (flags.test) files[testFile] = 'component.test.ts.stub'
    for (const file of Object.keys(files))
      if (existsSync(join(app.root, file)) && !flags.force) throw new CommandError(`${file} already exists (use --force to overwrite).`)
    const vars: Record<string, string> = {
      className,
      name,
      view: path,
      label: className,
      // From the test's folder back to the app, which `createTestApp({ root })` boots.
      appRoot: '../'.repeat(testFile.split('/').length - 1),
    }
    const fill = (text: string) => text.replace(/\{\{(className|name|view|label|appRoot)\}\}/g, (_match, key: string) => vars[key]!)
    for (const [file, stubFile] of Object.entries(files)) {
      const target = join(app.root, file)
      mkdirSync(dirname(target), { recursive: true })
      writeFileSync(target, fill(stub(app.root, stubFile)))
      info(`Created ${relative(app.root, target)}`)
    }
    info(`Use it in a view with @comp('${name}'), or as a page: Route.comp('/${path}', '${name}')`)
    if (flags.test) info(`Run its test with: npx ava ${testFile}`)
  },
})
