import { fileURLToPath } from 'node:url'
import test, { type ExecutionContext } from 'ava'
import { runWithApp } from 'kiln-framework'
import { Broadcast, flushBroadcasts } from 'kiln-framework/broadcasting'
import { testComponent } from 'kiln-framework/comp'
import { createTestApp, refreshDatabase, TestClient } from 'kiln-framework/testing'
import TodoList from '../../app/components/todo-list.ts'
import { Todo } from '../../app/models/todo.ts'
import { User } from '../../app/models/user.ts'
import seed from '../../database/seeders/index.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** The app on a fresh in-memory database, with the seeded users, and a client signed in as one of them. */
async function signedIn(t: ExecutionContext, email = 'test@example.com') {
  const app = await createTestApp({ root })
  t.teardown(() => app.close())
  await refreshDatabase(app)
  const user = await runWithApp(app, async () => {
    await seed()
    return (await User.query().where('email', '=', email).first())!
  })
  return { app, user, client: new TestClient(app).actingAs(user) }
}

test('a to-do needs a title of 3 characters or more, checked as it is typed; once added, the form is empty again', async (t) => {
  const { client } = await signedIn(t)
  const list = await testComponent(client, TodoList)
    .assertSee('Nothing here.')
    .set('form.title', 'ab')
    .assertHasErrors({ 'form.title': 'A to-do needs at least 3 characters.' })
    .call('add')
    .assertHasErrors('form.title')
    .assertSee('Nothing here.')
    .set('form.title', '  Buy milk  ')
    .assertHasNoErrors()
    .call('add')
    .assertHasNoErrors()
    .assertSet('form.title', '')
    .assertSee('Buy milk')
    .assertDontSee('Nothing here.')
  // ava wants an assertion of its own in every test.
  t.is(list.get('form.title'), '')
})

test('to-dos are ticked off, filtered and shown five to a page', async (t) => {
  const { app, client, user } = await signedIn(t)
  await runWithApp(app, async () => {
    for (let i = 1; i <= 7; i++) await Todo.create({ user_id: user.id, title: `Task ${i}`, done: i === 1 })
  })
  const first = await runWithApp(app, () => Todo.query().where('title', '=', 'Task 1').first())
  await testComponent(client, TodoList)
    .assertSee(['Task 7', 'Task 3'])
    .assertDontSee('Task 2') // on page 2: newest first
    .call('nextPage')
    .assertSet('page', 2)
    .assertSee(['Task 2', 'Task 1'])
    .set('filter', 'done')
    .assertSet('page', 1) // a new filter starts from the first page
    .assertSee('Task 1')
    .assertDontSee('Task 2')
    .call('toggle', first!.id)
    .assertSee('Nothing here.')
  t.false((await runWithApp(app, () => Todo.find(first!.id)))!.done)
})

test("someone else's to-do cannot be ticked off or deleted, whatever id the browser sends (TodoPolicy: 403)", async (t) => {
  const { app, client } = await signedIn(t)
  const maria = await runWithApp(app, () => User.query().where('email', '=', 'maria@example.com').first())
  // Made by its factory (database/factories/todo-factory.ts), owned by Maria.
  const hers = await runWithApp(app, () => Todo.factory().for(maria!).create({ title: 'Not yours' }))
  await testComponent(client, TodoList)
    .assertDontSee('Not yours')
    .call('toggle', hers.id)
    .assertStatus(403)
    .call('remove', hers.id)
    .assertStatus(403)
    .call('toggle', hers.id + 1000)
    .assertStatus(404)
  t.false((await runWithApp(app, () => Todo.find(hers.id)))!.done)
})

test("each change is broadcast on the user's private channel, which the list listens to", async (t) => {
  const { app, client, user } = await signedIn(t)
  const fake = runWithApp(app, () => Broadcast.fake())
  t.teardown(() => runWithApp(app, () => Broadcast.restore()))
  await testComponent(client, TodoList)
    .set('form.title', 'Buy milk')
    .call('add')
    .assertSee('Buy milk')
    // What another tab's broadcast does: the list renders again, reading the to-dos afresh.
    .dispatch(`echo-private:app.models.User.${user.id},TodosChanged`, { userId: user.id })
  await runWithApp(app, () => flushBroadcasts())
  t.notThrows(() => fake.assertBroadcastOn('TodosChanged', `private-app.models.User.${user.id}`))
})
