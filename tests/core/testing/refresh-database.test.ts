import test from 'ava'
import pg from 'pg'
import { createTestApp, refreshDatabase } from '../../../core/testing/index.ts'
import { DATABASE_URL } from '../../fixtures/pg-schema.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

// Issue 27 item 7: refreshDatabase runs on the configured database, PostgreSQL included (a schema per test app).

const files = (connection: string) => ({
  'config/database.ts': `export default { default: '${connection}', connections: { pgsql: { driver: 'pgsql', url: ${JSON.stringify(DATABASE_URL)} }, sqlite: { driver: 'sqlite', filename: 'database/never.sqlite' } } }\n`,
  'database/migrations/0001_notes.ts': `import { increments } from 'kiln-framework'
export async function up(db) { await db.schema.createTable('notes').addColumn('id', ...increments(db)).addColumn('body', 'text').execute() }
export async function down(db) { await db.schema.dropTable('notes').execute() }
`,
})

async function schemaExists(schema: string): Promise<boolean> {
  const client = new pg.Client(DATABASE_URL)
  await client.connect()
  try {
    return (await client.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [schema])).rowCount === 1
  } finally {
    await client.end()
  }
}

test('on a pgsql app, refreshDatabase migrates a schema of its own on PostgreSQL, and drops it when the app closes', async (t) => {
  const app = await createTestApp({ root: tempApp(files('pgsql')) })
  let closed = false
  t.teardown(() => (closed ? undefined : app.close()))
  const { schema } = await refreshDatabase(app)
  t.regex(schema ?? '', /^kiln_test_[0-9a-f]{12}$/)
  const db = await app.service('db').kysely()
  await db.insertInto('notes').values({ body: 'hello' }).execute()
  const version = (await db.selectNoFrom((eb) => eb.fn<string>('version', []).as('v')).executeTakeFirstOrThrow()).v
  t.regex(version, /PostgreSQL/, 'the queries run on PostgreSQL, not SQLite')
  t.deepEqual(await db.selectFrom('notes').select('body').execute(), [{ body: 'hello' }])
  t.true(await schemaExists(schema!))
  await app.close()
  closed = true
  t.false(await schemaExists(schema!))
})

test('two test apps on PostgreSQL at once never share tables', async (t) => {
  const [a, b] = await Promise.all([createTestApp({ root: tempApp(files('pgsql')) }), createTestApp({ root: tempApp(files('pgsql')) })])
  t.teardown(() => Promise.all([a.close(), b.close()]))
  await Promise.all([refreshDatabase(a), refreshDatabase(b)])
  await (await a.service('db').kysely()).insertInto('notes').values({ body: 'a' }).execute()
  t.deepEqual(await (await b.service('db').kysely()).selectFrom('notes').selectAll().execute(), [])
})

test('on a sqlite app, and with memory: true, it is SQLite in memory', async (t) => {
  const app = await createTestApp({ root: tempApp(files('sqlite')) })
  t.teardown(() => app.close())
  t.deepEqual(await refreshDatabase(app), { connection: 'testing', schema: undefined })
  t.is(app.config.get('database.connections.testing.filename'), ':memory:')
  const other = await createTestApp({ root: tempApp(files('pgsql')) })
  t.teardown(() => other.close())
  t.is((await refreshDatabase(other, { memory: true })).schema, undefined)
  t.is(app.service('db').connections.resolved().size, 1)
})
