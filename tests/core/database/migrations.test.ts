import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import test from 'ava'
import { DatabaseManager, definePlugin, registerMigrations, runCli, type Application } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

const create = (table: string) => `import { increments } from 'kiln-framework'
export async function up(db) { await db.schema.createTable('${table}').addColumn('id', ...increments(db)).execute() }
export async function down(db) { await db.schema.dropTable('${table}').execute() }
`

function quiet() {
  let text = ''
  return { stream: new Writable({ write: (c, _e, d) => ((text += String(c)), d()) }), text: () => text }
}

async function kiln(root: string, argv: string[]) {
  const out = quiet()
  const err = quiet()
  const code = await runCli(argv, { cwd: root, env: { APP_ENV: 'test' }, stdout: out.stream, stderr: err.stream })
  return { code, stdout: out.text(), stderr: err.text() }
}

function appRoot(files: Record<string, string>) {
  return tempApp({
    'config/database.ts': `export default { default: 'sqlite', connections: { sqlite: { driver: 'sqlite', filename: 'database/test.sqlite' } } }\n`,
    ...files,
  })
}

test('migrate, status, rollback --step and fresh through the CLI', async (t) => {
  const root = appRoot({ 'database/migrations/0001_a.ts': create('a'), 'database/migrations/0002_b.ts': create('b') })
  const first = await kiln(root, ['migrate'])
  t.is(first.code, 0, first.stderr)
  t.regex(first.stdout, /Migrated: 0001_a\nMigrated: 0002_b/)
  writeFileSync(join(root, 'database/migrations/0003_c.ts'), create('c'))
  t.regex((await kiln(root, ['migrate'])).stdout, /Migrated: 0003_c/)
  t.regex((await kiln(root, ['migrate'])).stdout, /Nothing to migrate/)
  const status = await kiln(root, ['migrate:status'])
  t.regex(status.stdout, /0001_a\s+yes\s+1/)
  t.regex(status.stdout, /0003_c\s+yes\s+2/)
  t.regex((await kiln(root, ['migrate:rollback'])).stdout, /Rolled back: 0003_c/)
  const two = await kiln(root, ['migrate:rollback', '--step=1'])
  t.regex(two.stdout, /Rolled back: 0002_b\nRolled back: 0001_a/)
  t.regex((await kiln(root, ['migrate:status'])).stdout, /0001_a\s+no/)
  t.is((await kiln(root, ['migrate:rollback', '--step=0'])).code, 1)
  t.regex((await kiln(root, ['migrate:fresh'])).stdout, /Migrated: 0001_a\nMigrated: 0002_b\nMigrated: 0003_c/)
})

test('a failed migration stops the run with its name and leaves the table consistent', async (t) => {
  const root = appRoot({
    'database/migrations/0001_ok.ts': create('ok'),
    'database/migrations/0002_broken.ts': `export async function up(db) { await db.schema.createTable('half').addColumn('id', 'integer').execute(); throw new Error('kaboom') }\n`,
    'database/migrations/0003_never.ts': create('never'),
  })
  const run = await kiln(root, ['migrate'])
  t.is(run.code, 1)
  t.regex(run.stderr, /Migration 0002_broken failed: kaboom/)
  const status = await kiln(root, ['migrate:status'])
  t.regex(status.stdout, /0001_ok\s+yes/)
  t.regex(status.stdout, /0002_broken\s+no/)
  t.regex(status.stdout, /0003_never\s+no/)
  writeFileSync(join(root, 'database/migrations/0002_broken.ts'), create('half'))
  const again = await kiln(root, ['migrate'])
  t.is(again.code, 0, again.stderr)
  t.regex(again.stdout, /Migrated: 0002_broken\nMigrated: 0003_never/)
})

test('plugins ship migrations: registered folders run, a published copy with the same name runs once', async (t) => {
  const pluginDir = tempApp({ 'migrations/0001_plugin_things.ts': create('plugin_things') })
  const plugin = definePlugin({
    name: 'things',
    register(app: Application) {
      registerMigrations(app, join(pluginDir, 'migrations'))
      app.service('publisher').publishes('things-migrations', [{ from: join(pluginDir, 'migrations'), to: 'database/migrations' }])
    },
  })
  const root = appRoot({
    'config/app.ts': `import { defineConfig } from 'kiln-framework'\nimport { plugin } from './plugin.ts'\nexport default defineConfig({ plugins: [plugin] })\n`,
    'config/plugin.ts': `export const plugin = (globalThis as any).__thingsPlugin\nexport default {}\n`,
  })
  ;(globalThis as Record<string, unknown>).__thingsPlugin = plugin
  t.is((await kiln(root, ['vendor:publish', '--tag=things-migrations'])).code, 0)
  t.true(existsSync(join(root, 'database/migrations/0001_plugin_things.ts')))
  const run = await kiln(root, ['migrate'])
  t.is(run.code, 0, run.stderr)
  t.is(run.stdout.match(/0001_plugin_things/g)?.length, 1)
})

test('db:seed runs the seeder; a missing seeder is a clear error with exit 1', async (t) => {
  const root = appRoot({
    'database/migrations/0001_a.ts': create('a'),
    'database/seeders/index.ts': `export default async function (app) { const db = await app.service('db').kysely(); await db.insertInto('a').values({ id: 1 }).execute() }\n`,
  })
  await kiln(root, ['migrate'])
  t.is((await kiln(root, ['db:seed'])).code, 0)
  const empty = appRoot({})
  const missing = await kiln(empty, ['db:seed'])
  t.is(missing.code, 1)
  t.regex(missing.stderr, /No seeder/)
  void DatabaseManager
})
