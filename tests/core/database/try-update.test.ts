import test from 'ava'
import pg from 'pg'
import { runWithApp } from '../../../core/index.ts'
import { Author, databaseApp } from '../../fixtures/database.ts'

for (const dialect of ['sqlite', 'pgsql'] as const) {
  test(`${dialect}: tryUpdate updates matching rows and says how many`, async (t) => {
    const app = await databaseApp(t, dialect)
    await runWithApp(app, async () => {
      const [ada] = [await Author.create({ name: 'Ada' }), await Author.create({ name: 'Bob' })]
      t.is(await Author.query().where('name', '=', 'Ada').tryUpdate({ email: 'ada@example.com' }), 1)
      t.is((await Author.find(ada!.id))!.getAttribute('email'), 'ada@example.com')
      t.is(await Author.query().whereIn('id', []).tryUpdate({ email: 'x' }), 0)
    })
  })

  test(`${dialect}: tryUpdate never joins the caller's transaction`, async (t) => {
    const app = await databaseApp(t, dialect)
    await runWithApp(app, async () => {
      const ada = await Author.create({ name: 'Ada' })
      let inside: number | undefined
      await t.throwsAsync(
        app.service('db').transaction(async () => {
          inside = await Author.query().where('id', '=', ada.id).tryUpdate({ email: 'kept@example.com' })
          throw new Error('roll back')
        }),
        { message: 'roll back' },
      )
      const email = (await Author.find(ada.id))!.getAttribute('email')
      // PostgreSQL writes on another connection of the pool; SQLite has one connection, so it skips rather than join.
      if (dialect === 'pgsql') t.deepEqual([inside, email], [1, 'kept@example.com'])
      else t.deepEqual([inside, email], [undefined, null])
    })
  })
}

test('pgsql: tryUpdate skips rows another transaction holds locked, and writes once they are free', async (t) => {
  const app = await databaseApp(t, 'pgsql')
  const { url, schema } = app.config.get<{ url: string; schema: string }>('database.connections.main')
  const other = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` })
  await other.connect()
  t.teardown(() => other.end())
  await runWithApp(app, async () => {
    const ada = await Author.create({ name: 'Ada' })
    await other.query('BEGIN')
    await other.query('SELECT * FROM authors WHERE id = $1 FOR UPDATE', [ada.id])
    t.is(await Author.query().where('id', '=', ada.id).tryUpdate({ email: 'ada@example.com' }), undefined)
    await other.query('COMMIT')
    t.is((await Author.find(ada.id))!.getAttribute('email'), null)
    t.is(await Author.query().where('id', '=', ada.id).tryUpdate({ email: 'ada@example.com' }), 1)
  })
})
