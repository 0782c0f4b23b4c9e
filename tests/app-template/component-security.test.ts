import test, { type ExecutionContext } from 'ava'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { TestClient } from '../../core/testing/index.ts'
import { tsPrivateMethods } from '../../plugins/comp/registry/private-methods.ts'
import { starterApp } from '../fixtures/starter-app.ts'
import { endpointOf, snapshots, update, type PageSnapshot } from '../plugins/comp/comp-fixtures.ts'

async function loggedIn(t: ExecutionContext) {
  const app = await starterApp(t, 'sqlite')
  const client = new TestClient(app)
  await client.get('/')
  t.is((await client.json('POST', '/login', { email: 'test@example.com', password: 'password' })).status, 200)
  return { app, client }
}

async function open(client: TestClient, path: string): Promise<{ snapshot: PageSnapshot; endpoint: string; status: number }> {
  const res = await client.get(path, { accept: 'text/html' })
  const html = await res.text()
  return { snapshot: snapshots(html)[0]!, endpoint: endpointOf(html), status: res.status }
}

test("the starter's helpers and the pagination internals cannot be called from the browser (403); only the page actions can", async (t) => {
  const { client } = await loggedIn(t)
  const todos = await open(client, '/todos')
  for (const [method, params] of [
    ['todo', [1]],
    ['userId', []],
    ['paginate', [{}, 5]],
    ['resetPage', []],
    ['toJSON', []],
    ['with', []],
    ['form.validate', []],
    ['form.reset', []],
  ] as const) {
    const res = await update(client, todos.endpoint, todos.snapshot, { calls: [{ method, params: [...params] }] })
    t.is(res.status, 403, method)
  }
  const tokens = await open(client, '/tokens')
  t.is((await update(client, tokens.endpoint, tokens.snapshot, { calls: [{ method: 'user' }] })).status, 403)
  t.is((await update(client, todos.endpoint, todos.snapshot, { calls: [{ method: 'nextPage' }] })).status, 200)
  t.is((await update(client, todos.endpoint, todos.snapshot, { calls: [{ method: 'gotoPage', params: [2] }] })).status, 200)
})

test('huge page numbers never reach SQL: in the URL, as an update and through gotoPage', async (t) => {
  const { client } = await loggedIn(t)
  t.is((await client.get('/todos?page=99999999999999999999', { accept: 'text/html' })).status, 200)
  t.is((await client.get('/todos?page=1e400', { accept: 'text/html' })).status, 200)
  const todos = await open(client, '/todos')
  const updated = await update(client, todos.endpoint, todos.snapshot, { updates: [['page', 1e308]] })
  t.is(updated.status, 200)
  t.is(((await updated.json()) as { serverMemo: { data: { page: number } } }).serverMemo.data.page, 1, 'a page past the end shows the last one')
  for (const page of ['1e400', 1e308, -1, 0, 1.5, 'x', null]) {
    const res = await update(client, todos.endpoint, todos.snapshot, { calls: [{ method: 'gotoPage', params: [page] }] })
    t.is(res.status, 422, String(page))
    t.regex(((await res.json()) as { message: string }).message, /page number/)
  }
})

test("the starter's components keep helpers private with #, never TypeScript's erased private", (t) => {
  const dir = fileURLToPath(new URL('../../app-template/app/components/', import.meta.url))
  const files = readdirSync(dir).filter((file) => file.endsWith('.ts'))
  t.true(files.length >= 3)
  for (const file of files) t.deepEqual(tsPrivateMethods(readFileSync(dir + file, 'utf8')), [], file)
  t.deepEqual(
    tsPrivateMethods(
      'class A extends Component {\n  private helper() {}\n  protected async load<T>() {}\n  private secret = 1\n  private get total() { return 1 }\n  #real() {}\n}',
    ),
    ['helper', 'load'],
  )
})

test("the to-do list's form object takes only its declared field, as a string", async (t) => {
  const { client } = await loggedIn(t)
  const todos = await open(client, '/todos')
  for (const [path, value] of [
    ['form.done', true],
    ['form.__proto__', {}],
    ['form.constructor', 'x'],
    ['form', 'x'],
    ['form.title', { length: 3 }],
  ] as const) {
    const res = await update(client, todos.endpoint, todos.snapshot, { updates: [[path, value]] })
    t.true(res.status === 400 || res.status === 422, `${path}: ${res.status}`)
    t.truthy(((await res.json()) as { message?: string }).message)
  }
})
