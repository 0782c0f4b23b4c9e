import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import test, { type ExecutionContext } from 'ava'
import Database from 'better-sqlite3'
import pg from 'pg'
import { tempApp } from '../../fixtures/temp-app.ts'
import { cli } from './cli-harness.ts'
import { DATABASE_URL, pgSchema } from '../../fixtures/pg-schema.ts'

const create = (table: string) => `import { increments } from 'kiln-framework'
export async function up(db) { await db.schema.createTable('${table}').addColumn('id', ...increments(db)).execute() }
export async function down(db) { await db.schema.dropTable('${table}').execute() }
`
const view = `export async function up(db) { await db.schema.createView('a_ids').as(db.selectFrom('a').select('id')).execute() }
export async function down(db) { await db.schema.dropView('a_ids').execute() }
`

/** A temp app on the dialect and a way to list its tables and views; PostgreSQL gets its own schema, dropped at teardown. */
async function databaseApp(t: ExecutionContext, dialect: 'sqlite' | 'pgsql', migrations: Record<string, string>) {
  if (dialect === 'sqlite') {
    const root = tempApp({
      ...migrations,
      'config/database.ts': `export default { default: 'main', connections: { main: { driver: 'sqlite', filename: 'database/app.sqlite' } } }\n`,
    })
    const relations = async () => {
      const db = new Database(join(root, 'database/app.sqlite'), { readonly: true })
      try {
        return (
          db.prepare(`select name from sqlite_master where type in ('table', 'view') and name not like 'sqlite_%' order by name`).all() as Array<{
            name: string
          }>
        ).map((r) => r.name)
      } finally {
        db.close()
      }
    }
    return { root, relations }
  }
  const { schema, client } = await pgSchema(t)
  const root = tempApp({
    ...migrations,
    'config/database.ts': `export default { default: 'main', connections: { main: { driver: 'pgsql', url: ${JSON.stringify(DATABASE_URL)}, schema: '${schema}' } } }\n`,
  })
  const relations = async () =>
    (
      await client.query<{ name: string }>(`select table_name as name from information_schema.tables where table_schema = $1 order by table_name`, [schema])
    ).rows.map((r) => r.name)
  return { root, relations, client, schema }
}

for (const dialect of ['sqlite', 'pgsql'] as const) {
  test(`${dialect}: migrate:reset rolls back every batch, newest first`, async (t) => {
    const { root, relations } = await databaseApp(t, dialect, { 'database/migrations/0001_a.ts': create('a') })
    t.is((await cli(['migrate'], root)).code, 0)
    writeFileSync(join(root, 'database/migrations/0002_b.ts'), create('b'))
    writeFileSync(join(root, 'database/migrations/0003_a_ids.ts'), view)
    t.is((await cli(['migrate'], root)).code, 0)
    t.deepEqual(await relations(), ['a', 'a_ids', 'b', 'migrations'])
    const reset = await cli(['migrate:reset'], root)
    t.is(reset.code, 0, reset.stderr)
    t.is(reset.stdout, 'Rolled back: 0003_a_ids\nRolled back: 0002_b\nRolled back: 0001_a\n')
    t.deepEqual(await relations(), ['migrations'])
    t.regex((await cli(['migrate:status'], root)).stdout, /0001_a\s+no/)
    t.is((await cli(['migrate:reset'], root)).stdout, 'Nothing to roll back.\n')
  })

  test(`${dialect}: db:wipe drops every table and view, the migrations table too, so migrate starts over`, async (t) => {
    const { root, relations } = await databaseApp(t, dialect, { 'database/migrations/0001_a.ts': create('a'), 'database/migrations/0002_a_ids.ts': view })
    t.is((await cli(['migrate'], root)).code, 0)
    t.deepEqual(await relations(), ['a', 'a_ids', 'migrations'])
    const wiped = await cli(['db:wipe'], root)
    t.is(wiped.code, 0, wiped.stderr)
    t.regex(wiped.stdout, /^Dropped 3 tables: /)
    t.deepEqual(await relations(), [])
    const empty = await cli(['db:wipe'], root)
    t.is(empty.stdout, 'No tables to drop.\n', empty.stderr)
    const again = await cli(['migrate'], root)
    t.is(again.stdout, 'Migrated: 0001_a\nMigrated: 0002_a_ids\n')
  })
}

test('pgsql: db:wipe and migrate:fresh leave the other schemas of the database alone', async (t) => {
  const { root, relations, client } = await databaseApp(t, 'pgsql', { 'database/migrations/0001_a.ts': create('a') })
  const other = `kiln_test_${randomBytes(5).toString('hex')}`
  await client!.query(`CREATE SCHEMA ${other}; CREATE TABLE ${other}.a (id int); INSERT INTO ${other}.a VALUES (7)`)
  t.teardown(() => client!.query(`DROP SCHEMA IF EXISTS ${other} CASCADE`).then(() => undefined))
  t.is((await cli(['migrate'], root)).code, 0)
  t.is((await cli(['migrate:fresh'], root)).code, 0)
  t.is((await cli(['db:wipe'], root)).code, 0)
  t.deepEqual(await relations(), [])
  t.deepEqual((await client!.query(`select id from ${other}.a`)).rows, [{ id: 7 }])
})

test('pgsql: db:wipe reads only its own schema, so other sessions dropping schemas meanwhile do not make it fail', async (t) => {
  const { root, client } = await databaseApp(t, 'pgsql', { 'database/migrations/0001_a.ts': create('a') })
  // Another session creates and drops whole schemas the whole time, as parallel test suites and other apps do.
  const churn = new pg.Client(DATABASE_URL)
  await churn.connect()
  let stop = false
  const churning = (async () => {
    for (let i = 0; !stop; i++) {
      const other = `kiln_churn_${randomBytes(4).toString('hex')}_${i}`
      await churn.query(`CREATE SCHEMA ${other}; CREATE TABLE ${other}.t (id int, b text); CREATE VIEW ${other}.v AS SELECT * FROM ${other}.t`)
      await churn.query(`DROP SCHEMA ${other} CASCADE`)
    }
  })()
  try {
    for (let round = 0; round < 40; round++) {
      t.is((await cli(['migrate'], root)).code, 0)
      const wiped = await cli(['db:wipe'], root)
      t.is(wiped.stdout, 'Dropped 2 tables: a, migrations.\n', wiped.stderr)
    }
  } finally {
    stop = true
    await churning
    await churn.end()
  }
  t.truthy(client)
})
