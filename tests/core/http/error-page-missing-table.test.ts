import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import test, { type ExecutionContext } from 'ava'
import { sql } from 'kysely'
import { createApp, Migrator, runWithApp, type Application } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { connectionFor } from '../../fixtures/database.ts'

const MESSAGE = 'The table "users" does not exist. Run `kiln migrate` to create it.'

const files = {
  // Both ways to reach a table: the query builder, and a model (on SQLite its lookup by key skips Kysely).
  'app/models/user.ts': `import { Model } from 'kiln-framework'\nexport class User extends Model { static table = 'users' }\n`,
  'routes/api.ts': `import { defineRoutes, DatabaseManager, currentApp } from 'kiln-framework'
import { User } from '../app/models/user.ts'
export default defineRoutes((Route) => {
  Route.get('/users', async () => {
    const { kysely } = await currentApp().service('db').connection()
    return kysely.selectFrom('users').selectAll().execute()
  })
  Route.get('/users/{id}', async ({ params }) => (await User.find(Number(params.id))) ?? { none: true })
  Route.get('/broken-sql', async () => {
    const { kysely } = await currentApp().service('db').connection()
    return kysely.selectFrom('users').select('no_such_column').execute()
  })
})
`,
  'database/migrations/0001_users.ts': `import { increments } from 'kiln-framework'
export async function up(db) { await db.schema.createTable('users').addColumn('id', ...increments(db)).execute() }
export async function down(db) { await db.schema.dropTable('users').execute() }
`,
}

/** A fresh app on the dialect, no migrations run; PostgreSQL gets an empty schema of its own. */
async function freshApp(t: ExecutionContext, dialect: 'sqlite' | 'pgsql', debug: boolean): Promise<{ app: Application; root: string }> {
  const connection = connectionFor(dialect)
  const root = tempApp(files)
  const app = await createApp({
    root,
    env: { APP_ENV: 'test', APP_DEBUG: String(debug) },
    config: {
      database: { default: 'main', connections: { main: connection } },
      logging: { level: 'error', channels: ['file'], file: { path: 'storage/logs/kiln.log' } },
    },
  })
  const db = app.service('db')
  if (dialect === 'pgsql') {
    await sql.raw(`CREATE SCHEMA ${connection.schema as string}`).execute((await db.connection('main')).kysely)
    t.teardown(async () => {
      await sql.raw(`DROP SCHEMA ${connection.schema as string} CASCADE`).execute((await db.connection('main')).kysely)
      await app.close()
    })
  } else t.teardown(() => app.close())
  return { app, root }
}

const json = { accept: 'application/json' }

for (const dialect of ['sqlite', 'pgsql'] as const) {
  test(`${dialect}, APP_DEBUG=true: a missing table says to run kiln migrate, in JSON and on the page`, async (t) => {
    const { app } = await freshApp(t, dialect, true)
    for (const path of ['/users', '/users/1']) {
      const res = await app.request(path, { headers: json })
      t.is(res.status, 500, path)
      const body = (await res.json()) as { message: string; exception: string }
      t.is(body.message, MESSAGE, path)
      t.is(body.exception, 'MissingTableError')
    }
    const page = await app.request('/users', { headers: { accept: 'text/html' } })
    t.is(page.status, 500)
    const html = await page.text()
    t.regex(html, /The table (&quot;|&#34;|")users(&quot;|&#34;|") does not exist\. Run `kiln migrate` to create it\./)

    await runWithApp(app, () => new Migrator(app).migrate())
    t.deepEqual(await (await app.request('/users', { headers: json })).json(), [])
    t.deepEqual(await (await app.request('/users/1', { headers: json })).json(), { none: true })

    // Other SQL errors keep the driver's message.
    const other = (await (await app.request('/broken-sql', { headers: json })).json()) as { message: string; exception: string }
    t.not(other.exception, 'MissingTableError')
    t.regex(other.message, /no_such_column/)
  })

  test(`${dialect}, APP_DEBUG=false: a missing table is a plain 500 with its code, and the log line says to run kiln migrate`, async (t) => {
    const { app, root } = await freshApp(t, dialect, false)
    const res = await app.request('/users', { headers: json })
    t.is(res.status, 500)
    t.deepEqual(await res.json(), { message: 'Server error.', code: 'E_MISSING_TABLE' })
    const page = await (await app.request('/users/1', { headers: { accept: 'text/html' } })).text()
    t.false(page.includes('kiln migrate'))
    await app.close()
    const lines = readFileSync(join(root, 'storage/logs/kiln.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { err?: { message: string; type: string } })
    t.is(lines.length, 2)
    for (const line of lines) {
      t.is(line.err?.type, 'MissingTableError')
      // pino adds the driver's own message (the cause) after it.
      t.true(line.err?.message.startsWith(MESSAGE), line.err?.message)
    }
  })
}
