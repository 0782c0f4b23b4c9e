import { fileURLToPath } from 'node:url'
import test from 'ava'
import { runWithApp } from '../../../core/index.ts'
import { createTestApp, refreshDatabase } from '../../../core/testing/index.ts'
import { Todo } from '../../../app-template/app/models/todo.ts'
import { User } from '../../../app-template/app/models/user.ts'
import seed, { SEEDED_USERS } from '../../../app-template/database/seeders/index.ts'

const root = fileURLToPath(new URL('../../../app-template/', import.meta.url))

test('the starter\'s seeder makes its users through the User factory: verified, with the password "password"', async (t) => {
  const app = await createTestApp({ root })
  t.teardown(() => app.close())
  await refreshDatabase(app)
  await runWithApp(app, async () => {
    await seed()
    await seed()
    t.is(await User.query().count(), SEEDED_USERS.length, 'a second run adds nothing')
    const maria = (await User.query().where('email', '=', 'maria@example.com').first())!
    t.is(maria.name, 'Maria Garcia')
    t.true(await maria.verifyPassword('password'))
    t.true(maria.getAttribute('email_verified_at') != null)
  })
})

test("the starter's factories: users by the count, an unverified state, and to-dos that belong to a user", async (t) => {
  const app = await createTestApp({ root })
  t.teardown(() => app.close())
  await refreshDatabase(app)
  await runWithApp(app, async () => {
    const users = await User.factory().count(3).create()
    t.is(await User.query().count(), 3)
    t.true(await users[2]!.verifyPassword('password'))
    const fresh = await User.factory().state('unverified').create({ name: 'New' })
    t.is((await User.find(fresh.id))!.getAttribute('email_verified_at'), null)

    const done = await Todo.factory().count(2).state('done').for(users[0]!).create()
    t.deepEqual(
      done.map((todo) => [todo.user_id, todo.done]),
      [
        [users[0]!.id, true],
        [users[0]!.id, true],
      ],
    )
    const todos = await Todo.query().where('user_id', '=', users[0]!.id).get()
    t.true(todos.every((todo) => todo.title.endsWith('.')))
  })
})
