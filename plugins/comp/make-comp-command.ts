import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CommandError, defineCommand } from '../../core/index.ts'
import { kebab } from './registry.ts'

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
 * `kiln make:comp TodoList` (or `Admin/UserTable`): a component class in
 * `app/components/` and its view in `resources/views/components/`.
 *
 * @example
 * ```sh
 * kiln make:comp Admin/UserTable   # app/components/admin/user-table.ts, resources/views/components/admin/user-table.hbs
 * ```
 */
export const makeCompCommand = defineCommand({
  name: 'make:comp',
  description: 'Create a component class and its view',
  args: [{ name: 'name', description: 'The class name, e.g. TodoList or Admin/UserTable', required: true }],
  flags: { force: { type: 'boolean', description: 'Overwrite existing files' } },
  examples: ['kiln make:comp TodoList', 'kiln make:comp Admin/UserTable'],
  run({ app, args, flags, info }) {
    const given = args[0] ?? ''
    const parts = given.split(/[/\\.]/).filter(Boolean)
    if (parts.length === 0 || !parts.every((part) => /^[A-Z][A-Za-z0-9]*$/.test(part))) {
      throw new CommandError(`"${given}" is not a component name: use PascalCase, with "/" for folders (TodoList, Admin/UserTable).`)
    }
    const className = parts.at(-1)!
    const path = parts.map(kebab).join('/')
    const name = parts.map(kebab).join('.')
    const files = {
      [join(app.root, 'app/components', `${path}.ts`)]: stub(app.root, 'component.ts.stub'),
      [join(app.root, 'resources/views/components', `${path}.hbs`)]: stub(app.root, 'component.hbs.stub'),
    }
    for (const file of Object.keys(files))
      if (existsSync(file) && !flags.force) throw new CommandError(`${relative(app.root, file)} already exists (use --force to overwrite).`)
    const fill = (text: string) =>
      text.replaceAll('{{className}}', className).replaceAll('{{name}}', name).replaceAll('{{view}}', path).replaceAll('{{label}}', className)
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, fill(text))
      info(`Created ${relative(app.root, file)}`)
    }
    info(`Use it in a view with @comp('${name}'), or as a page: Route.comp('/${path}', '${name}')`)
  },
})
