/**
 * The testing example of docs/components/testing.md, run against the starter app:
 * if this file fails, the docs show code that does not work.
 */
import test from 'ava'
import { hashPassword } from '../../core/index.ts'
import { createTestApp, refreshDatabase, TestClient } from '../../core/testing/index.ts'
import { ComponentTest, testComponent } from '../../plugins/comp/index.ts'

const root = new URL('../../app-template/', import.meta.url).pathname

test('the counter counts', async (t) => {
  const app = await createTestApp({ root })
  t.teardown(() => app.close())
  const counter = await testComponent(app, 'counter', { count: 5 }).call('increment').assertSet('count', 6).assertSee('6').call('mount').assertStatus(403) // lifecycle hooks cannot be called from the browser
  t.is(counter.get('count'), 6)
})

test('a to-do needs a title', async (t) => {
  const app = await createTestApp({ root })
  t.teardown(() => app.close())
  await refreshDatabase(app)
  const db = await app.service('db').kysely()
  const password = await hashPassword('a long passphrase')
  // Verified: the to-do list is behind the starter's `verified` middleware.
  await db.insertInto('users').values({ name: 'Ada', email: 'ada@example.com', password, email_verified_at: new Date().toISOString() }).execute()

  const client = new TestClient(app)
  await client.get('/login')
  await client.post('/login', { email: 'ada@example.com', password: 'a long passphrase' }, { accept: 'application/json' })
  const list = await ComponentTest.visit(client, '/todos', 'todo-list')
    .set('form.title', 'ab')
    .assertHasErrors({ 'form.title': 'at least 3 characters' }) // checked as it is set (@validate)
    .set('form.title', 'Buy milk')
    .call('add')
    .assertHasNoErrors()
    .assertSet('form.title', '')
    .assertSee('Buy milk')
  t.is(list.status, 200)
})
