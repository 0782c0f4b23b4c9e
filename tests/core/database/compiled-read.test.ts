import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { sql } from 'kysely'
import { compiledRead, compiledReadNow, compiledRowNow, Migrator, onAnyQueryWrite, parameter, runWithApp, type QueryWrite } from '../../../core/index.ts'
import { Author, databaseApp } from '../../fixtures/database.ts'

const addNickname = `export async function up(db) { await db.schema.alterTable('authors').addColumn('nickname', 'varchar(50)').execute() }
export async function down(db) { await db.schema.alterTable('authors').dropColumn('nickname').execute() }
`

for (const dialect of ['sqlite', 'pgsql'] as const) {
  test(`${dialect}: compiledRead binds its parameters on every run, reads inside transactions, and sees columns a later migration adds`, async (t) => {
    const app = await databaseApp(t, dialect)
    const read = (name: string) =>
      compiledRead(
        'authors with columns',
        async ({ db, columns }) =>
          db
            .selectFrom('authors')
            .select((await columns('authors')).filter((c) => c !== 'secret'))
            .where('name', '=', parameter(0) as never)
            .limit(sql.lit(1)),
        [name],
      )
    await runWithApp(app, async () => {
      await Author.create({ name: 'Ada' })
      await Author.create({ name: 'Bob' })
      t.is((await read('Ada'))[0]!.name, 'Ada')
      t.is((await read('Bob'))[0]!.name, 'Bob')
      t.deepEqual(await read('Cy'), [])
      t.false('nickname' in (await read('Ada'))[0]!)
      // Inside a transaction the read sees its uncommitted rows.
      await app
        .service('db')
        .transaction(async () => {
          await Author.create({ name: 'Cy' })
          t.is((await read('Cy'))[0]!.name, 'Cy')
          throw new Error('roll back')
        })
        .catch(() => {})
      t.deepEqual(await read('Cy'), [])
    })
    writeFileSync(join(app.root, 'database/migrations/0002_nickname.ts'), addNickname)
    await new Migrator(app).migrate()
    await runWithApp(app, async () => t.true('nickname' in (await read('Ada'))[0]!))
  })
}

test('onAnyQueryWrite hears query-builder updates and deletes with the columns they set', async (t) => {
  const app = await databaseApp(t, 'sqlite')
  const heard: Array<[string, QueryWrite]> = []
  const stop = onAnyQueryWrite((model, write) => void heard.push([model.name, write]))
  t.teardown(stop)
  await runWithApp(app, async () => {
    const ada = await Author.create({ name: 'Ada' })
    await Author.query().where('id', '=', ada.id).update({ email: 'a@example.com' })
    await Author.query().where('id', '=', ada.id).tryUpdate({ name: 'Ada L.' })
    await Author.query().where('id', '=', ada.id).delete()
  })
  t.deepEqual(
    heard.map(([name, write]) => [name, write.kind, [...write.columns].sort()]),
    [
      ['Author', 'update', ['email', 'updated_at']],
      ['Author', 'update', ['name', 'updated_at']],
      ['Author', 'delete', []],
    ],
  )
})

test('compiledReadNow answers at once on SQLite once the read was compiled, and leaves transactions and PostgreSQL to compiledRead', async (t) => {
  const build = ({ db }: { db: import('kysely').Kysely<any> }) =>
    db
      .selectFrom('authors')
      .select('name')
      .where('name', '=', parameter(0) as never)
      .limit(sql.lit(1))
  const sqlite = await databaseApp(t, 'sqlite')
  await runWithApp(sqlite, async () => {
    await Author.create({ name: 'Ada' })
    t.is(compiledReadNow('author now', ['Ada']), undefined, 'not compiled yet')
    t.deepEqual(await compiledRead('author now', build, ['Ada']), [{ name: 'Ada' }])
    t.deepEqual(compiledReadNow('author now', ['Ada']), [{ name: 'Ada' }])
    t.deepEqual(compiledReadNow('author now', ['Bob']), [])
    await sqlite.service('db').transaction(async () => {
      await Author.create({ name: 'Bob' })
      // Its uncommitted row is only visible through the transaction's own connection: compiledRead.
      t.is(compiledReadNow('author now', ['Bob']), undefined)
      t.deepEqual(await compiledRead('author now', build, ['Bob']), [{ name: 'Bob' }])
    })
    t.deepEqual(compiledReadNow('author now', ['Bob']), [{ name: 'Bob' }])
  })
  const pgsql = await databaseApp(t, 'pgsql')
  await runWithApp(pgsql, async () => {
    await Author.create({ name: 'Ada' })
    t.deepEqual(await compiledRead('author now', build, ['Ada']), [{ name: 'Ada' }])
    t.is(compiledReadNow('author now', ['Ada']), undefined, 'a network read always has a promise')
  })
})

test('compiledRowNow gives the first row as an array with its columns, leaves transactions to compiledRead, and sees a column a migration adds to *', async (t) => {
  const build = ({ db }: { db: import('kysely').Kysely<any> }) =>
    db
      .selectFrom('authors')
      .selectAll()
      .where('name', '=', parameter(0) as never)
      .limit(sql.lit(1))
  const app = await databaseApp(t, 'sqlite')
  const named = (first: ReturnType<typeof compiledRowNow>) => first && Object.fromEntries(first.columns.map((column, i) => [column, first.row[i]]))
  await runWithApp(app, async () => {
    await Author.create({ name: 'Ada' })
    t.is(compiledRowNow('author row', ['Ada']), undefined, 'not compiled yet')
    const [object] = await compiledRead('author row', build, ['Ada'])
    t.deepEqual(named(compiledRowNow('author row', ['Ada'])), object)
    t.is(compiledRowNow('author row', ['Bob']), null)
    // The shared statement behind compiledReadNow still answers objects.
    t.deepEqual(compiledReadNow('author row', ['Ada']), [object])
    await app.service('db').transaction(async () => {
      await Author.create({ name: 'Bob' })
      t.is(compiledRowNow('author row', ['Bob']), undefined)
    })
    t.is(named(compiledRowNow('author row', ['Bob']))!.name, 'Bob')
    t.false(compiledRowNow('author row', ['Ada'])!.columns.includes('nickname'))
  })
  writeFileSync(join(app.root, 'database/migrations/0002_nickname.ts'), addNickname)
  await new Migrator(app).migrate()
  await runWithApp(app, async () => {
    t.is(compiledRowNow('author row', ['Ada']), undefined, 'forgotten by the migration')
    await compiledRead('author row', build, ['Ada'])
    t.is(named(compiledRowNow('author row', ['Ada']))!.nickname, null)
  })
})
