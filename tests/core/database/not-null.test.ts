import test from 'ava'
import { createApp, Migrator, NotNullViolationError, runWithApp } from '../../../core/index.ts'
import { Author, databaseApp } from '../../fixtures/database.ts'

for (const dialect of ['sqlite', 'pgsql'] as const) {
  test(`${dialect}: a write that leaves a NOT NULL column empty names the table and column`, async (t) => {
    const app = await databaseApp(t, dialect)
    await runWithApp(app, async () => {
      const error = await t.throwsAsync(Author.create({ email: 'nameless@example.com' }), { instanceOf: NotNullViolationError })
      t.is(error.message, 'authors.name may not be null. Give it a value (or a default in its migration).')
      t.like(error, { code: 'E_NOT_NULL', table: 'authors', column: 'name' })
      // The same through the query builder, on an update.
      const author = await Author.create({ name: 'Ada' })
      await t.throwsAsync(Author.query().where('id', '=', author.id).update({ name: null }), { message: /^authors\.name may not be null\./ })
    })
  })
}

test('over HTTP the debug page and the log name the column', async (t) => {
  const root = (await databaseApp(t, 'sqlite')).root
  const app = await createApp({
    root,
    env: { APP_ENV: 'test', APP_DEBUG: 'true' },
    config: { database: { default: 'main', connections: { main: { driver: 'sqlite', filename: 'database/test.sqlite' } } } },
  })
  t.teardown(() => app.close())
  await new Migrator(app).migrate()
  app.router.post('/authors', () => Author.create({ email: 'x@example.com' }))
  const response = await app.request('/authors', { method: 'POST', headers: { accept: 'application/json' } })
  t.is(response.status, 500)
  t.regex(((await response.json()) as { message: string }).message, /authors\.name may not be null/)
})
