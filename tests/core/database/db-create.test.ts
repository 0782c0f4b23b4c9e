import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseEnv } from 'node:util'
import test, { type ExecutionContext } from 'ava'
import pg from 'pg'
import { tempApp } from '../../fixtures/temp-app.ts'
import { BIN, bin, cli } from '../cli/cli-harness.ts'

const SERVER = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

/** The server's URL on another database. */
function urlOf(database: string): string {
  const url = new URL(SERVER)
  url.pathname = `/${database}`
  return url.toString()
}

async function onServer<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: urlOf('postgres') })
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}

const exists = (name: string) => onServer(async (client) => Boolean((await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount))

/** A database name no other test uses, dropped after the test. */
function uniqueDatabase(t: ExecutionContext): string {
  const name = `kiln_create_${randomBytes(5).toString('hex')}`
  t.teardown(() => onServer((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)))
  return name
}

const migration = `import { increments } from 'kiln-framework'
export async function up(db) { await db.schema.createTable('notes').addColumn('id', ...increments(db)).addColumn('body', 'text').execute() }
export async function down(db) { await db.schema.dropTable('notes').execute() }
`

function app(): string {
  return tempApp({
    'config/app.ts': "import { defineConfig } from 'kiln-framework'\nexport default defineConfig({})\n",
    // The starter's: DB_DATABASE names SQLite's file.
    'config/database.ts': readFileSync(new URL('../../../app-template/config/database.ts', import.meta.url), 'utf8'),
    'database/migrations/0001_notes.ts': migration,
  })
}

test('db:create makes the PostgreSQL database of DATABASE_URL through the server\'s "postgres" database; again, it says it exists', async (t) => {
  const name = uniqueDatabase(t)
  const env = { APP_ENV: 'test', DB_CONNECTION: 'pgsql', DATABASE_URL: urlOf(name) }
  const root = app()
  const created = await cli(['db:create'], root, env)
  t.is(created.code, 0, created.stderr)
  t.is(created.stdout.trim(), `Created database "${name}".`)
  t.true(await exists(name))
  const again = await cli(['db:create'], root, env)
  t.is(again.code, 0, again.stderr)
  t.is(again.stdout.trim(), `The database "${name}" already exists.`)
  const migrated = await cli(['migrate'], root, env)
  t.is(migrated.code, 0, migrated.stderr)
  t.regex(migrated.stdout, /Migrated: 0001_notes/)
})

test('migrate on a missing PostgreSQL database, without a terminal, names kiln db:create and exits 1', async (t) => {
  const name = uniqueDatabase(t)
  const env = { DB_CONNECTION: 'pgsql', DATABASE_URL: urlOf(name), CI: '' }
  const root = app()
  const result = await bin(['migrate'], root, env)
  t.is(result.code, 1, result.stdout)
  t.regex(result.stderr, new RegExp(`The database "${name}" does not exist on 127\\.0\\.0\\.1:5432\\. Create it with: kiln db:create`))
  t.false(await exists(name))
})

test('migrate at a terminal offers to create the missing database, then migrates', async (t) => {
  const name = uniqueDatabase(t)
  const root = app()
  // `script` gives the command a terminal; "y" answers the question.
  const env: NodeJS.ProcessEnv = { ...process.env, APP_ENV: 'test', DB_CONNECTION: 'pgsql', DATABASE_URL: urlOf(name), NO_COLOR: '1' }
  delete env.CI
  delete env.KILN_ROOT
  const result = await new Promise<{ code: number; output: string }>((resolve, reject) => {
    const child = spawn('script', ['-qec', `"${process.execPath}" "${BIN}" migrate`, '/dev/null'], { cwd: root, env })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += String(chunk)
      if (output.includes('Create it now?') && !child.stdin.writableEnded) child.stdin.end('y\n')
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code: code ?? 1, output }))
  })
  t.is(result.code, 0, result.output)
  t.regex(result.output, new RegExp(`The database "${name}" does not exist on 127\\.0\\.0\\.1:5432\\. Create it now\\? \\[Y/n\\]`))
  t.regex(result.output, new RegExp(`Created database "${name}"\\.`))
  t.regex(result.output, /Migrated: 0001_notes/)
  t.true(await exists(name))
})

test('db:create on SQLite makes the file (and its folder); in memory there is nothing to make', async (t) => {
  const root = app()
  const env = { APP_ENV: 'test', DB_CONNECTION: 'sqlite', DB_DATABASE: 'data/app.sqlite' }
  const created = await cli(['db:create'], root, env)
  t.is(created.code, 0, created.stderr)
  t.is(created.stdout.trim(), 'Created data/app.sqlite.')
  t.true(existsSync(join(root, 'data/app.sqlite')))
  t.is((await cli(['db:create'], root, env)).stdout.trim(), 'data/app.sqlite already exists.')
  t.is((await cli(['db:create'], root, { ...env, DB_DATABASE: ':memory:' })).stdout.trim(), 'An in-memory SQLite database needs no creating.')
})

test('kiln new names the PostgreSQL database after the app in .env and .env.example', async (t) => {
  const parent = tempApp()
  const made = await bin(['new', 'My Shop', '--no-install'], parent)
  t.is(made.code, 0, made.stderr)
  for (const file of ['.env', '.env.example']) {
    const env = parseEnv(readFileSync(join(parent, 'My Shop', file), 'utf8'))
    t.is(env.DATABASE_URL, 'postgres://postgres@127.0.0.1:5432/my_shop', file)
  }
})
