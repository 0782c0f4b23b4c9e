import { appFile, defineGenerator, importPath, rootFrom, type PlannedFile } from './define-generator.ts'
import { planMigration } from './make-migration.ts'
import { className, snakeCase } from './names.ts'
import { plural } from './plural.ts'

/**
 * `kiln make:model Post [-m]`: `app/models/post.ts` on the `posts` table;
 * with `-m`/`--migration` also the migration that creates the table, and a
 * test that stores and finds a row.
 *
 * @example
 * ```sh
 * kiln make:model BlogPost -m   # app/models/blog-post.ts, database/migrations/<stamp>_create_blog_posts_table.ts
 * ```
 */
export const makeModelCommand = defineGenerator({
  name: 'make:model',
  description: 'Create a model class (and its migration with -m)',
  argument: { name: 'name', description: 'The class name, singular: Post, BlogPost' },
  examples: ['kiln make:model Post', 'kiln make:model Post -m'],
  flags: { migration: { type: 'boolean', short: 'm', description: 'Also create the migration that creates its table' } },
  writesTests: true,
  plan({ root, given, flags, withTest }) {
    const name = className(given, { label: 'model' })
    const table = plural(snakeCase(name.className))
    const file = appFile('app/models', name.folders, name.fileName, '.ts')
    const vars = { className: name.className, camelName: name.camelName, table }
    const files: PlannedFile[] = [{ path: file, stub: 'model', vars }]
    if (flags.migration) {
      files.push(planMigration(root, `create_${table}_table`, { create: table }))
      // The test needs the table, so it comes with the migration.
      if (withTest) {
        const test = appFile('tests/models', name.folders, name.fileName, '.test.ts')
        files.push({ path: test, stub: 'model.test', vars: { ...vars, importPath: importPath(test, file), appRoot: rootFrom(test) } })
      }
    }
    return files
  },
  next: (_files, { flags }) => (flags.migration ? ['Create the table with: kiln migrate'] : []),
})
