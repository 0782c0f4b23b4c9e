import { appFile, defineGenerator, importPath, rootFrom, type PlannedFile } from './define-generator.ts'
import { className, kebabCase, snakeCase } from './names.ts'
import { plural } from './plural.ts'

/**
 * `kiln make:controller Post [--resource]`: `app/controllers/post-controller.ts`
 * (an `index` action, or with `--resource` index, store, show, update and
 * destroy) and its test in `tests/controllers/`.
 *
 * @example
 * ```sh
 * kiln make:controller Admin/Post --resource   # app/controllers/admin/post-controller.ts, routes /admin/posts
 * ```
 */
export const makeControllerCommand = defineGenerator({
  name: 'make:controller',
  description: 'Create a controller class',
  argument: { name: 'name', description: 'The class name, e.g. Post, PostController or Admin/Post' },
  examples: ['kiln make:controller Post', 'kiln make:controller Post --resource', 'kiln make:controller Admin/Post -r --skip-test'],
  flags: { resource: { type: 'boolean', short: 'r', description: 'With the resource actions: index, store, show, update, destroy' } },
  writesTests: true,
  plan({ given, flags, withTest }) {
    const name = className(given, { suffix: 'Controller', label: 'controller' })
    const resource = plural(snakeCase(name.baseName))
    const path = `/${[...name.folders, kebabCase(resource)].join('/')}`
    const vars = {
      className: name.className,
      baseName: name.baseName,
      resource: resource.replace(/_/g, ' '),
      path,
      param: snakeCase(name.baseName),
      routeName: path.slice(1).replace(/\//g, '.'),
    }
    const kind = flags.resource ? 'controller.resource' : 'controller'
    const file = appFile('app/controllers', name.folders, name.fileName, '.ts')
    const files: PlannedFile[] = [{ path: file, stub: kind, vars }]
    if (withTest) {
      const test = appFile('tests/controllers', name.folders, name.fileName, '.test.ts')
      files.push({ path: test, stub: `${kind}.test`, vars: { ...vars, importPath: importPath(test, file), appRoot: rootFrom(test) } })
    }
    return files
  },
  next: (files) => [`Mount it in routes/web.ts or routes/api.ts: ${mountHint(files[0]!)}`],
})

function mountHint(file: PlannedFile): string {
  const { className: name, path } = file.vars as { className: string; path: string }
  return `Route.get('${path}', [${name}, 'index'])`
}
