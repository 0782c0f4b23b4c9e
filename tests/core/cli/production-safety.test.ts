import { join } from 'node:path'
import test from 'ava'
import Database from 'better-sqlite3'
import { generateAppKey } from '../../../core/security/app-key.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { bin, cli, lines, STACK_FRAME } from './cli-harness.ts'

const files = {
  'config/database.ts': `export default { default: 'sqlite', connections: { sqlite: { driver: 'sqlite', filename: 'database/app.sqlite' } } }\n`,
  'database/migrations/0001_keepers.ts': `import { increments } from 'kiln-framework'
export async function up(db) { await db.schema.createTable('keepers').addColumn('id', ...increments(db)).addColumn('name', 'varchar(255)').execute() }
export async function down(db) { await db.schema.dropTable('keepers').execute() }
`,
  'database/seeders/index.ts': `export default async (app) => { const { kysely } = await app.service('db').connection(); await kysely.insertInto('keepers').values({ name: 'seeded' }).execute() }\n`,
}

function tables(root: string): string[] {
  const db = new Database(join(root, 'database/app.sqlite'), { readonly: true })
  try {
    return (db.prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`).all() as Array<{ name: string }>).map(
      (r) => r.name,
    )
  } finally {
    db.close()
  }
}

function keepers(root: string): string[] {
  const db = new Database(join(root, 'database/app.sqlite'), { readonly: true })
  try {
    return (db.prepare('select name from keepers order by id').all() as Array<{ name: string }>).map((r) => r.name)
  } finally {
    db.close()
  }
}

async function productionApp() {
  const root = tempApp(files)
  const env = { APP_ENV: 'production', APP_KEY: generateAppKey(), APP_URL: 'https://shop.example.com' }
  const migrated = await cli(['migrate', '--force'], root, env)
  if (migrated.code !== 0) throw new Error(migrated.stderr)
  const db = new Database(join(root, 'database/app.sqlite'))
  db.prepare('insert into keepers (name) values (?)').run('precious')
  db.close()
  return { root, env }
}

test('under APP_ENV=production, migrate, migrate:rollback, migrate:fresh, migrate:reset, db:wipe and db:seed refuse without --force, and nothing is dropped or seeded', async (t) => {
  const { root, env } = await productionApp()
  for (const command of ['migrate', 'migrate:rollback', 'migrate:fresh', 'migrate:reset', 'db:wipe', 'db:seed']) {
    const refused = await cli([command], root, env)
    t.is(refused.code, 1, command)
    t.is(lines(refused.stderr).length, 1, refused.stderr)
    t.regex(
      refused.stderr,
      new RegExp(`^Refusing to run "${command}" in production \\(it [a-z ',]+\\): APP_ENV is production\\. Add --force to run it anyway\\.$`, 'm'),
    )
    t.notRegex(refused.stderr, STACK_FRAME)
    t.is(refused.stdout, '')
  }
  // `migrate:fresh --seed` and `migrate --seed` are refused as a whole, and a misspelt --force is an unknown option, not a yes.
  t.is((await cli(['migrate:fresh', '--seed'], root, env)).code, 1)
  const seedRefused = await cli(['migrate', '--seed'], root, env)
  t.is(seedRefused.code, 1)
  t.regex(
    seedRefused.stderr,
    /^Refusing to run "migrate" in production \(it changes the database's schema\): APP_ENV is production\. Add --force to run it anyway\.$/m,
  )
  t.regex((await cli(['migrate:fresh', '--forse'], root, env)).stderr, /Unknown option "--forse".*Did you mean "--force"\?/)
  t.deepEqual(tables(root), ['keepers', 'migrations'])
  t.deepEqual(keepers(root), ['precious'])
  t.regex((await cli(['migrate:status'], root, env)).stdout, /0001_keepers\s+yes\s+1/)
  // Every one of them lists --force in its help.
  for (const command of ['migrate', 'migrate:rollback', 'migrate:fresh', 'migrate:reset', 'db:wipe', 'db:seed'])
    t.regex((await cli(['help', command], root, env)).stdout, /--force +Run even when APP_ENV=production/)
})

test('under APP_ENV=production, --force runs them', async (t) => {
  const { root, env } = await productionApp()
  const seeded = await cli(['db:seed', '--force'], root, env)
  t.is(seeded.code, 0, seeded.stderr)
  t.deepEqual(keepers(root), ['precious', 'seeded'])
  const migratedAndSeeded = await cli(['migrate', '--seed', '--force'], root, env)
  t.is(migratedAndSeeded.code, 0, migratedAndSeeded.stderr)
  t.regex(migratedAndSeeded.stdout, /Nothing to migrate\.\nDatabase seeded\./)
  t.deepEqual(keepers(root), ['precious', 'seeded', 'seeded'])
  const fresh = await cli(['migrate:fresh', '--force', '--seed'], root, env)
  t.is(fresh.code, 0, fresh.stderr)
  t.deepEqual(keepers(root), ['seeded'])
  const rolledBack = await cli(['migrate:rollback', '--force'], root, env)
  t.regex(rolledBack.stdout, /Rolled back: 0001_keepers/, rolledBack.stderr)
  t.is((await cli(['migrate', '--force'], root, env)).code, 0)
  const reset = await cli(['migrate:reset', '--force'], root, env)
  t.is(reset.code, 0, reset.stderr)
  t.regex(reset.stdout, /Rolled back: 0001_keepers/)
  t.deepEqual(tables(root), ['migrations'])
  const wiped = await cli(['db:wipe', '--force'], root, env)
  t.is(wiped.code, 0, wiped.stderr)
  t.deepEqual(tables(root), [])
})

test('outside production the same commands run without --force', async (t) => {
  const root = tempApp(files)
  const env = { APP_ENV: 'development', APP_KEY: generateAppKey() }
  t.is((await cli(['migrate'], root, env)).code, 0)
  t.is((await cli(['db:seed'], root, env)).code, 0)
  t.deepEqual(keepers(root), ['seeded'])
  t.is((await cli(['db:wipe'], root, env)).code, 0)
  t.deepEqual(tables(root), [])
})

test('the real bin: migrate:fresh refuses under APP_ENV=production and the table survives', async (t) => {
  const { root, env } = await productionApp()
  const refused = await bin(['migrate:fresh'], root, env)
  t.is(refused.code, 1)
  t.regex(refused.stderr, /^Refusing to run "migrate:fresh" in production \(it drops every table\)/)
  t.notRegex(refused.stderr, STACK_FRAME)
  t.deepEqual(keepers(root), ['precious'])
})

test('migrate --seed migrates, then seeds; without --seed nothing is seeded', async (t) => {
  const root = tempApp(files)
  const env = { APP_ENV: 'local', APP_KEY: generateAppKey() }
  const migrated = await cli(['migrate'], root, env)
  t.is(migrated.code, 0, migrated.stderr)
  t.deepEqual(keepers(root), [])
  await cli(['migrate:reset'], root, env)
  const seeded = await cli(['migrate', '--seed'], root, env)
  t.is(seeded.code, 0, seeded.stderr)
  t.regex(seeded.stdout, /Migrated: 0001_keepers\nDatabase seeded\./)
  t.deepEqual(keepers(root), ['seeded'])
})
