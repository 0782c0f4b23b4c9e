import { defineGenerator } from './define-generator.ts'
import { className } from './names.ts'

/**
 * `kiln make:seeder UserSeeder`: `database/seeders/user-seeder.ts`, a
 * function `kiln db:seed --class=UserSeeder` runs alone and
 * `database/seeders/index.ts` can call.
 *
 * @example
 * ```sh
 * kiln make:seeder PostSeeder   # database/seeders/post-seeder.ts
 * ```
 */
export const makeSeederCommand = defineGenerator({
  name: 'make:seeder',
  description: 'Create a database seeder',
  argument: { name: 'name', description: 'The seeder, e.g. UserSeeder (Seeder is added when missing)' },
  examples: ['kiln make:seeder UserSeeder', 'kiln make:seeder Post'],
  plan({ given }) {
    const name = className(given, { suffix: 'Seeder', label: 'seeder' })
    // By name alone, as db:seed --class finds it: no sub-folders.
    const file = `database/seeders/${name.fileName}.ts`
    return [{ path: file, stub: 'seeder', vars: { className: name.className, camelName: name.camelName, fileName: name.fileName } }]
  },
  next: (files) => [`Run it: kiln db:seed --class=${files[0]!.vars.className}`],
})
