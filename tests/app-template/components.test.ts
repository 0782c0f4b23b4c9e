import test, { type ExecutionContext } from 'ava'
import { runWithApp } from '../../core/index.ts'
import { TestClient } from '../../core/testing/index.ts'
import { PersonalAccessToken } from '../../plugins/tok/index.ts'
import { Todo } from '../../app-template/app/models/todo.ts'
import { ComponentTest } from '../../plugins/comp/index.ts'
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
  await t.notThrowsAsync(
    ComponentTest.visit(client, '/counter', 'counter')
      .call('decrement')
      .assertSet('count', -1)
      .assertSeeHtml('data-test="count">-1<')
      .call('render')
      .assertStatus(403),
  )
})

const shown = (html: string) => (html.match(/data-test="todo"/g) ?? []).length

test('/todos: guests are sent to log in; a user adds (validated), ticks off, filters, pages and deletes only their own to-dos', async (t) => {
  const { app, client } = await loggedIn(t)
  const guest = new TestClient(app)
  t.is((await guest.get('/todos', { accept: 'text/html' })).status, 302)

  // The form object's title is checked when the browser sends it, and again by add().
  let todos = await ComponentTest.visit(client, '/todos', 'todo-list')
    .assertSee('Nothing here.')
    .assertSet('form', { title: '' })
    .set('form.title', 'ab')
    .assertHasErrors({ 'form.title': 'A to-do needs at least 3 characters.' })
    .assertSee('A to-do needs at least 3 characters.')
    .call('add')
    .assertHasErrors('form.title')
    .assertDontSeeHtml('>ab</span>')
    .set('form.title', '  Task 1  ')
    .assertHasNoErrors()
    .call('add')
    .assertHasNoErrors()
    .assertSet('form.title', '')
    .assertSeeHtml('>Task 1</span>')
    .set('form.title', 'x'.repeat(201))
    .call('add')
    .assertHasErrors({ 'form.title': 'under 200 characters' })
  for (let i = 2; i <= 7; i++) todos = await todos.set('form.title', `Task ${i}`).call('add').assertHasNoErrors()
  t.is(shown(todos.html), 5, 'five to a page')
  t.regex(todos.html, /wire:click="gotoPage\(2\)"/)
  todos.assertSee(['Task 7', 'Task 3']).assertDontSee('Task 2')

  const rows = await runWithApp(app, () => Todo.query().orderBy('id').get())
  t.deepEqual(
    rows.map((todo) => todo.title),
    ['Task 1', 'Task 2', 'Task 3', 'Task 4', 'Task 5', 'Task 6', 'Task 7'],
    'trimmed by the rule',
  )
  todos = await todos.call('toggle', rows[6]!.id).assertHasNoErrors().assertSeeHtml('<span class="done">Task 7</span>')
  t.true((await runWithApp(app, () => Todo.find(rows[6]!.id)))!.done)
  todos = await todos.set('filter', 'done').assertSet('page', 1)
  t.is(shown(todos.html), 1)
  t.deepEqual(todos.effects?.queryString, { filter: 'done', page: null })

  // Another user's to-do is out of reach, whatever id the browser sends: TodoPolicy answers 403.
  const other = await runWithApp(app, async () => {
    const { User } = await import('../../app-template/app/models/user.ts')
    const someone = new User({ name: 'Other', email: 'other@example.com' })
    await someone.setPassword('x')
    await someone.save()
    return Todo.create({ user_id: someone.id, title: 'not yours', done: false })
  })
  await todos.call('remove', other.id).assertStatus(403).call('toggle', other.id).assertStatus(403)
  t.false((await runWithApp(app, () => Todo.find(other.id)))!.done)
  await todos.call('remove', rows[6]!.id).assertStatus(200).assertSee('Nothing here.')
  t.is(await runWithApp(app, () => Todo.find(rows[6]!.id)), undefined)
  t.truthy(await runWithApp(app, () => Todo.find(other.id)))
  const page = await open(client, '/todos?filter=open&page=2')
  t.is(shown(page.html), 1, 'filter and page from the URL')
})

test('/tokens: a user creates a token with abilities (shown once, usable on the API) and revokes it', async (t) => {
  const { app, client } = await loggedIn(t)
  const tokens = await ComponentTest.visit(client, '/tokens', 'token-manager')
    .assertSeeHtml('data-test="no-tokens"')
    .set({ name: '', abilities: [] })
    .call('create')
    .assertHasErrors({ name: 'Give the token a name.', abilities: 'Pick at least one ability.' })
    .set({ name: 'laptop', abilities: ['orders:read', 'orders:write'] })
    .call('create')
    .assertHasNoErrors()
    .assertSet('name', '')
    .assertSeeHtml('<td>laptop</td>')
    .assertSeeHtml(['<code>orders:read</code>', '<code>orders:write</code>'])
  const plain = String(tokens.get('created'))
  t.regex(plain, /^\d+\|/)
  tokens.assertSee(plain)
  const api = new TestClient(app)
  t.is((await api.json('GET', '/user', undefined, { authorization: `Bearer ${plain}` })).status, 200)
  await tokens.refresh().assertSet('created', '').assertDontSeeHtml('data-test="plain-token"') // shown once
  // An ability outside the list is refused.
  await tokens.set('abilities', ['root']).call('create').assertHasErrors({ abilities: 'Pick abilities from the list.' })
  const id = Number(plain.split('|')[0])
  await tokens.call('revoke', id).assertStatus(200).assertSeeHtml('data-test="no-tokens"')
  t.is(await runWithApp(app, () => PersonalAccessToken.find(id)), undefined)
  t.is((await api.json('GET', '/user', undefined, { authorization: `Bearer ${plain}` })).status, 401)
})
