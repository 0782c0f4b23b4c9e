import test, { type ExecutionContext } from 'ava'
import { runWithApp } from '../../core/index.ts'
import { TestClient } from '../../core/testing/index.ts'
import { PersonalAccessToken } from '../../plugins/tok/index.ts'
import { Todo } from '../../app-template/app/models/todo.ts'
import { starterApp } from '../fixtures/starter-app.ts'
import { endpointOf, next, snapshots, update, type PageSnapshot } from '../plugins/comp/comp-fixtures.ts'

async function loggedIn(t: ExecutionContext) {
  const app = await starterApp(t, 'sqlite')
  const client = new TestClient(app)
  await client.get('/')
  t.is((await client.json('POST', '/login', { email: 'test@example.com', password: 'password' })).status, 200)
  return { app, client }
}

async function open(client: TestClient, path: string): Promise<{ html: string; snapshot: PageSnapshot; endpoint: string }> {
  const res = await client.get(path, { accept: 'text/html' })
  const html = await res.text()
  return { html, snapshot: snapshots(html)[0]!, endpoint: endpointOf(html) }
}

async function call(client: TestClient, state: { snapshot: PageSnapshot; endpoint: string }, body: Parameters<typeof update>[3]) {
  const res = await update(client, state.endpoint, state.snapshot, body)
  const json = await res.json()
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(json)}`)
  return { json, state: { snapshot: next(state.snapshot, json), endpoint: json.effects.endpoint } }
}

test('/counter: the starter counter, a full-page component in the layout', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const client = new TestClient(app)
  const page = await open(client, '/counter')
  t.regex(page.html, /<title>Counter · Kiln<\/title>/)
  t.regex(page.html, /<meta name="comp-endpoint"/)
  t.regex(page.html, /data-test="count">0</)
  const { json } = await call(client, page, { calls: [{ method: 'increment' }, { method: 'increment' }, { method: 'decrement' }] })
  t.regex(json.effects.html, /data-test="count">1</)
})

test('/todos: guests are sent to log in; a user adds (validated), ticks off, filters, pages and deletes only their own to-dos', async (t) => {
  const { app, client } = await loggedIn(t)
  const guest = new TestClient(app)
  t.is((await guest.get('/todos', { accept: 'text/html' })).status, 302)
  let page = await open(client, '/todos')
  t.regex(page.html, /data-test="empty">Nothing here\./)
  const invalid = await call(client, page, { updates: [['title', 'ab']], calls: [{ method: 'add' }] })
  t.deepEqual(invalid.json.effects.errors, { title: ['A to-do needs at least 3 characters.'] })
  let state = invalid.state
  for (let i = 1; i <= 7; i++) state = (await call(client, state, { updates: [['title', `Task ${i}`]], calls: [{ method: 'add' }] })).state
  let rendered = await call(client, state, { calls: [{ method: '$refresh' }] })
  t.is((rendered.json.effects.html.match(/data-test="todo"/g) ?? []).length, 5, 'five to a page')
  t.regex(rendered.json.effects.html, /wire:click="gotoPage\(2\)"/)
  const todos = await runWithApp(app, () => Todo.query().orderBy('id').get())
  rendered = await call(client, rendered.state, { calls: [{ method: 'toggle', params: [todos[6]!.id] }] })
  t.true((await runWithApp(app, () => Todo.find(todos[6]!.id)))!.done)
  const done = await call(client, rendered.state, { updates: [['filter', 'done']] })
  t.is((done.json.effects.html.match(/data-test="todo"/g) ?? []).length, 1)
  t.deepEqual(done.json.effects.queryString, { filter: 'done', page: null })

  // Another user's to-do is out of reach, whatever id the browser sends.
  const other = await runWithApp(app, async () => {
    const { User } = await import('../../app-template/app/models/user.ts')
    const someone = new User({ name: 'Other', email: 'other@example.com' })
    await someone.setPassword('x')
    await someone.save()
    return Todo.create({ user_id: someone.id, title: 'not yours', done: false })
  })
  const refused = await update(client, done.state.endpoint, done.state.snapshot, { calls: [{ method: 'remove', params: [other.id] }] })
  t.is(refused.status, 404)
  await call(client, done.state, { calls: [{ method: 'remove', params: [todos[6]!.id] }] })
  t.is(await runWithApp(app, () => Todo.find(todos[6]!.id)), undefined)
  t.truthy(await runWithApp(app, () => Todo.find(other.id)))
  page = await open(client, '/todos?filter=open&page=2')
  t.is((page.html.match(/data-test="todo"/g) ?? []).length, 1, 'filter and page from the URL')
})

test('/tokens: a user creates a token with abilities (shown once, usable on the API) and revokes it', async (t) => {
  const { app, client } = await loggedIn(t)
  const page = await open(client, '/tokens')
  t.regex(page.html, /data-test="no-tokens"/)
  const invalid = await call(client, page, {
    updates: [
      ['name', ''],
      ['abilities', []],
    ],
    calls: [{ method: 'create' }],
  })
  t.deepEqual(Object.keys(invalid.json.effects.errors).sort(), ['abilities', 'name'])
  const made = await call(client, invalid.state, {
    updates: [
      ['name', 'laptop'],
      ['abilities', ['orders:read', 'orders:write']],
    ],
    calls: [{ method: 'create' }],
  })
  const plain = /data-test="plain-token">([^<]+)</.exec(made.json.effects.html)![1]!
  t.regex(plain, /^\d+\|/)
  t.regex(made.json.effects.html, /<td>laptop<\/td>\s*<td><code>orders:read<\/code> <code>orders:write<\/code>/)
  const api = new TestClient(app)
  const me = await api.json('GET', '/user', undefined, { authorization: `Bearer ${plain.replace(/&#x7C;|&#124;/, '|')}` })
  t.is(me.status, 200)
  const again = await call(client, made.state, { calls: [{ method: '$refresh' }] })
  t.false(again.json.effects.html.includes('data-test="plain-token"'), 'shown once')
  const id = Number(plain.split('|')[0])
  const bad = await update(client, again.state.endpoint, again.state.snapshot, { updates: [['abilities', ['root']]], calls: [{ method: 'create' }] })
  t.is(bad.status, 200)
  t.truthy((await bad.json()).effects.errors['abilities.0'], 'an ability outside the list is refused')
  await call(client, again.state, { calls: [{ method: 'revoke', params: [id] }] })
  t.is(await runWithApp(app, () => PersonalAccessToken.find(id)), undefined)
  t.is((await api.json('GET', '/user', undefined, { authorization: `Bearer ${plain}` })).status, 401)
})
