// The examples of docs/testing.md, run on the starter app: the assertions and refreshDatabase on PostgreSQL do what the page says.
import test from 'ava'
import { fileURLToPath } from 'node:url'
import { createTestApp, TestClient, refreshDatabase } from '../../core/testing/index.ts'

const root = fileURLToPath(new URL('../../app-template/', import.meta.url))

test('docs/testing.md: the response assertions example passes on the starter', async (t) => {
  const app = await createTestApp({ root })
  t.teardown(() => app.close())
  await refreshDatabase(app)
  const client = new TestClient(app)
  const home = await client.get('/', { accept: 'text/html' })
  await home.assertOk()
  await home.assertHeader('content-type', 'text/html')
  await home.assertSee('Kiln')
  await home.assertDontSee('Exception')
  await home.assertCookie('XSRF-TOKEN')
  const health = await client.get('/health')
  await (await health.assertOk()).assertJson({ status: 'ok' })
  await health.assertJsonPath('status', 'ok')
  await (await client.get('/todos', { accept: 'text/html' })).assertRedirect('/login')
  const login = await client.post('/login', { email: 'nobody@example.com', password: 'wrong' }, { accept: 'text/html' })
  await login.assertRedirect()
  await login.assertSessionHas('errors')
  t.pass()
})
test('docs/testing.md: refreshDatabase on PostgreSQL gives the starter an empty, migrated schema', async (t) => {
  const app = await createTestApp({ root, env: { DB_CONNECTION: 'pgsql', DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' } })
  t.teardown(() => app.close())
  const { schema } = await refreshDatabase(app)
  t.truthy(schema)
  const db = await app.service('db').kysely()
  t.deepEqual(await db.selectFrom('users').selectAll().execute(), [])
})
