import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { CommandError } from '../define-command.ts'
import { defineGenerator, type PlannedFile } from './define-generator.ts'
import { snakeCase } from './names.ts'

const FOLDER = 'database/migrations'
const STAMPED = /^(\d{4})_(\d{2})_(\d{2})_(\d{2})(\d{2})(\d{2})_(.+)\.(ts|js|mjs)$/

/**
 * The migration file for a name: `database/migrations/2026_03_01_101500_create_posts_table.ts`.
 * An existing migration of that name keeps its file (so `--force` rewrites
 * it rather than adding a second one); a new one is stamped after every
 * stamped migration already there, so files made within one second still
 * run in the order they were made.
 *
 * @example
 * ```ts
 * planMigration('/srv/app', 'create_posts_table', { create: 'posts' })
 * ```
 */
export function planMigration(root: string, given: string, options: { create?: string; table?: string } = {}): PlannedFile {
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(given)) {
    throw new CommandError(`"${given}" is not a valid migration name: use letters, digits and underscores, starting with a letter (create_posts_table).`)
  }
  const name = snakeCase(given)
  for (const table of [options.create, options.table]) {
    if (table !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(table))
      throw new CommandError(`"${table}" is not a valid table name: use letters, digits and underscores.`)
  }
  const create = options.create ?? (options.table ? undefined : /^create_(\w+?)_table$/.exec(name)?.[1])
  const table = create ?? options.table ?? /_(?:to|from|in|on)_(\w+?)(?:_table)?$/.exec(name)?.[1]
  const stub = create ? 'migration.create' : table ? 'migration.update' : 'migration'
  const files = existsSync(join(root, FOLDER)) ? readdirSync(join(root, FOLDER)) : []
  const existing = files.find((file) => STAMPED.exec(file)?.[7] === name || file.replace(/\.(ts|js|mjs)$/, '').replace(/^\d+_/, '') === name)
  const path = `${FOLDER}/${existing ?? `${stamp(files)}_${name}.ts`}`
  return { path, stub, vars: { table: table ?? '', migrationName: name } }
}

/** `YYYY_MM_DD_HHMMSS` (UTC), one second after the latest stamped migration when now is not later. */
function stamp(files: string[]): string {
  let time = Math.floor(Date.now() / 1000) * 1000
  for (const file of files) {
    const m = STAMPED.exec(file)
    if (m) time = Math.max(time, Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) + 1000)
  }
  const d = new Date(time)
  const two = (n: number) => String(n).padStart(2, '0')
  return `${d.getUTCFullYear()}_${two(d.getUTCMonth() + 1)}_${two(d.getUTCDate())}_${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}`
}

/**
 * `kiln make:migration create_posts_table`: a stamped file in
 * `database/migrations/`. `create_<table>_table` (or `--create=<table>`)
 * starts a `createTable`; `add_x_to_<table>` (or `--table=<table>`) an
 * `alterTable`; anything else a blank `up`/`down`.
 *
 * @example
 * ```sh
 * kiln make:migration add_published_at_to_posts
 * ```
 */
export const makeMigrationCommand = defineGenerator({
  name: 'make:migration',
  description: 'Create a migration file',
  argument: { name: 'name', description: 'What it does, in snake_case: create_posts_table, add_slug_to_posts' },
  examples: ['kiln make:migration create_posts_table', 'kiln make:migration add_slug_to_posts', 'kiln make:migration backfill_slugs --table=posts'],
  flags: {
    create: { type: 'string', description: 'The table it creates' },
    table: { type: 'string', description: 'The table it changes' },
  },
  plan: ({ root, given, flags }) => [planMigration(root, given, { create: flags.create as string | undefined, table: flags.table as string | undefined })],
  next: () => ['Run it with: kiln migrate'],
})
