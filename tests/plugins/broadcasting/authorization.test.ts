import type { ExecutionContext } from 'ava'
import test from 'ava'
import { createApp, Migrator, runWithApp, type Application } from '../../../core/index.ts'
import { TestClient } from '../../../core/testing/index.ts'
import nullDriver from '../../../drivers/broadcast/null/index.ts'
import { broadcasting, channelAuth, sharedSecret } from '../../../plugins/broadcasting/index.ts'
import { Author, Post } from '../../fixtures/database.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

const KEY = '278d425bdf160c739803'
const SECRET = '7ad3773142a6692b25b8'
const MASTER = Buffer.alloc(32, 9).toString('base64')

const migration = `import { increments } from 'kiln-framework'
export async function up(db) {
  await db.schema.createTable('authors').addColumn('id', ...increments(db)).addColumn('name', 'varchar(255)').addColumn('email', 'varchar(255)').addColumn('secret', 'varchar(255)').addColumn('created_at', 'timestamp').addColumn('updated_at', 'timestamp').execute()
  await db.schema.createTable('posts').addColumn('id', ...increments(db)).addColumn('author_id', 'integer').addColumn('title', 'varchar(255)').addColumn('meta', 'text').addColumn('published', 'boolean').addColumn('views', 'integer').addColumn('created_at', 'timestamp').addColumn('updated_at', 'timestamp').addColumn('deleted_at', 'timestamp').execute()
}`

const channels = `import { defineChannels } from 'kiln-framework/broadcasting'
export default defineChannels((Broadcast) => {
  const g = globalThis as any
  Broadcast.channel('orders.{order}', (user, order) => user.id === order.author_id, { bind: { order: g.__Post } })
  Broadcast.channel('chat.{room}', (user, room) => (room === 'closed' ? false : { id: user.id, name: user.name }))
  Broadcast.channel('vault.{id}', () => true)
  Broadcast.channel('admins', (user) => user.name === 'Admin', { guards: ['admin', 'web'] })
  Broadcast.channel('App.Models.Author.{id}', class { join(user, id) { return String(user.id) === id } })
})
`

async function makeApp(t: ExecutionContext): Promise<{ app: Application; ada: Author; grace: Author }> {
  ;(globalThis as Record<string, unknown>).__Post = Post
  const app = await createApp({
    root: tempApp({ 'database/migrations/0001_x.ts': migration, 'routes/channels.ts': channels }),
    env: { APP_ENV: 'test' },
    plugins: [broadcasting(), nullDriver],
    config: {
      session: { driver: 'memory' },
      database: { default: 'main', connections: { main: { driver: 'sqlite', filename: ':memory:' } } },
      auth: {
        guards: { web: { driver: 'session', provider: 'authors' }, admin: { driver: 'session', provider: 'authors' } },
        providers: { authors: { driver: 'model', model: () => Author } },
      },
      broadcasting: { default: 'main', connections: { main: { driver: 'null', key: KEY, secret: SECRET, encryption_master_key: MASTER } } },
    },
  })
  t.teardown(() => app.close())
  await new Migrator(app).migrate()
  const [ada, grace] = await runWithApp(app, async () => [await Author.create({ name: 'Ada' }), await Author.create({ name: 'Grace' })])
  await runWithApp(app, () => Post.create({ author_id: ada!.id, title: 'order' }))
  app.router.group({ middleware: ['web'] }, () => {
    app.router.get('/csrf', () => null)
    app.router.post('/login-as/{id}', async ({ params, auth }) => {
      await auth.login((await Author.find(params.id))!, params.id === '99' ? 'admin' : 'web')
      return { ok: true }
    })
  })
  return { app, ada: ada!, grace: grace! }
}

async function loggedIn(app: Application, id: number): Promise<TestClient> {
  const client = new TestClient(app)
  await client.get('/csrf')
  await client.json('POST', `/login-as/${id}`)
  return client
}

const auth = (client: TestClient, body: Record<string, unknown>) => client.json('POST', '/broadcasting/auth', body)

test('private channels: the signature matches the Pusher vector scheme; bound models load by key', async (t) => {
  const { app, ada } = await makeApp(t)
  const client = await loggedIn(app, ada.id)
  const res = await auth(client, { socket_id: '1234.1234', channel_name: 'private-orders.1' })
  t.is(res.status, 200)
  t.deepEqual(await res.json(), { auth: channelAuth(KEY, SECRET, '1234.1234', 'private-orders.1') })
  const form = await client.post('/broadcasting/auth', `socket_id=1234.1234&channel_name=private-App.Models.Author.${ada.id}`, {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  })
  t.is(form.status, 200, 'form fields and channel classes work too')
})

test('presence channels add channel_data with user_id and user_info; encrypted channels add shared_secret', async (t) => {
  const { app, ada } = await makeApp(t)
  const client = await loggedIn(app, ada.id)
  const presence = await (await auth(client, { socket_id: '1.2', channel_name: 'presence-chat.lobby' })).json()
  t.deepEqual(JSON.parse(presence.channel_data), { user_id: ada.id, user_info: { id: ada.id, name: 'Ada' } })
  t.is(presence.auth, channelAuth(KEY, SECRET, '1.2', 'presence-chat.lobby', presence.channel_data))
  const encrypted = await (await auth(client, { socket_id: '1.2', channel_name: 'private-encrypted-vault.1' })).json()
  t.is(encrypted.shared_secret, sharedSecret('private-encrypted-vault.1', Buffer.from(MASTER, 'base64')))
})

test("refusals are 403, never 500: no pattern, a missing model, a falsy callback, someone else's order, guests, public channels", async (t) => {
  const { app, ada, grace } = await makeApp(t)
  const refused = async (client: TestClient, channel: string) => {
    const res = await auth(client, { socket_id: '1.2', channel_name: channel })
    t.is(res.status, 403, channel)
    t.truthy((await res.json()).message)
  }
  const adaClient = await loggedIn(app, ada.id)
  await refused(adaClient, 'private-unknown.1')
  await refused(adaClient, 'private-orders.999')
  await refused(adaClient, 'private-orders.abc')
  await refused(adaClient, 'presence-chat.closed')
  await refused(adaClient, 'orders.1')
  await refused(adaClient, 'private-admins')
  await refused(await loggedIn(app, grace.id), 'private-orders.1')
  const guest = new TestClient(app)
  await guest.get('/csrf')
  await refused(guest, 'private-orders.1')
})

test('bad input is 422: a missing field or a malformed socket id', async (t) => {
  const { app, ada } = await makeApp(t)
  const client = await loggedIn(app, ada.id)
  for (const body of [
    {},
    { socket_id: '1.2' },
    { channel_name: 'private-orders.1' },
    { socket_id: '12', channel_name: 'private-orders.1' },
    { socket_id: '1.2.3', channel_name: 'private-orders.1' },
    { socket_id: ['1.2'], channel_name: 'private-orders.1' },
    { socket_id: '1.2', channel_name: { a: 1 } },
    { socket_id: '1.2', channel_name: 'private-a b' },
  ]) {
    const res = await auth(client, body)
    t.is(res.status, 422, JSON.stringify(body))
    t.truthy((await res.json()).errors)
  }
})

test('user-auth signs who the socket is', async (t) => {
  const { app, ada } = await makeApp(t)
  const client = await loggedIn(app, ada.id)
  const res = await (await client.json('POST', '/broadcasting/user-auth', { socket_id: '1.2' })).json()
  t.is(JSON.parse(res.user_data).id, String(ada.id))
  t.regex(res.auth, new RegExp(`^${KEY}:[a-f0-9]{64}$`))
  const guest = new TestClient(app)
  await guest.get('/csrf')
  t.is((await guest.json('POST', '/broadcasting/user-auth', { socket_id: '1.2' })).status, 403)
})

test('routes can be turned off with broadcasting.routes = false', async (t) => {
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' }, plugins: [broadcasting(), nullDriver], config: { broadcasting: { routes: false } } })
  t.teardown(() => app.close())
  t.is((await app.request('/broadcasting/auth', { method: 'POST', headers: { accept: 'application/json' } })).status, 404)
})

test('a member object answers only presence-: the private- and private-encrypted- channels of the same name need true', async (t) => {
  const { app, ada } = await makeApp(t)
  const client = await loggedIn(app, ada.id)
  t.is((await auth(client, { socket_id: '1.2', channel_name: 'presence-chat.lobby' })).status, 200)
  for (const channel of ['private-chat.lobby', 'private-encrypted-chat.lobby']) {
    const res = await auth(client, { socket_id: '1.2', channel_name: channel })
    t.is(res.status, 403, channel)
    t.truthy((await res.json()).message)
  }
  t.is((await auth(client, { socket_id: '1.2', channel_name: 'presence-vault.1' })).status, 200, 'true still answers presence, with empty user_info')
  t.is((await auth(client, { socket_id: '1.2', channel_name: 'private-vault.1' })).status, 200)
})
