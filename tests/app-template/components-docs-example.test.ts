/**
 * The testing example of docs/components.md, run against the starter app:
 * if this file fails, the docs show code that does not work.
 */
import test from 'ava'
import { runWithApp } from '../../core/index.ts'
import { createTestApp, refreshDatabase, TestClient } from '../../core/testing/index.ts'
import { ComponentTest, testComponent } from '../../plugins/comp/index.ts'
import { User } from '../../app-template/app/models/user.ts'

const root = new URL('../../app-template/', import.meta.url).pathname

test('the counter counts', async (t) => {
  const app = await createTestApp({ root })
  t.teardown(() => app.close())
  const counter = await testComponent(new TestClient(app), 'counter', { count: 5 })
  await counter.call('increment')
  t.is(counter.get('count'), 6)
  t.regex(counter.html, /6/)
  await counter.call('mount')
  t.is(counter.status, 403) // lifecycle hooks cannot be called from the browser
})

test('a to-do needs a title', async (t) => {
  const app = await createTestApp({ root })
  t.teardown(() => app.close())
  await refreshDatabase(app)
  const user = await runWithApp(app, async () => {
    const ada = new User()
    ada.fill({ name: 'Ada', email: 'ada@example.com' })
    await ada.setPassword('a long passphrase')
    await ada.save()
    return ada
  })
  const client = new TestClient(app).actingAs(user)
  const todos = await ComponentTest.visit(client, '/todos', 'todo-list')
  await todos.set('title', 'ab')
  await todos.call('add')
  t.deepEqual(todos.errors.title, ['A to-do needs at least 3 characters.'])
})
