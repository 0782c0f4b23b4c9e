import test, { type ExecutionContext } from 'ava'
import { Migrator, runWithApp, type Application } from '../../../core/index.ts'
import { TestClient } from '../../../core/testing/index.ts'
import { broadcast, InteractsWithSockets, ShouldBroadcastNow } from '../../../plugins/broadcasting/index.ts'
import { Author } from '../../fixtures/database.ts'
import { join, rtApp, type TestSocket } from '../../drivers/broadcast/websocket/rt-fixtures.ts'

const migration = `import { increments } from 'kiln-framework'
export async function up(db) { await db.schema.createTable('authors').addColumn('id', ...increments(db)).addColumn('name', 'varchar(255)').addColumn('email', 'varchar(255)').addColumn('secret', 'varchar(255)').addColumn('created_at', 'timestamp').addColumn('updated_at', 'timestamp').execute() }`

const channels = `import { defineChannels } from 'kiln-framework/broadcasting'
export default defineChannels((Broadcast) => {
  Broadcast.channel('App.Models.Author.{id}', (user, id) => String(user.id) === id)
})
`

class Said extends ShouldBroadcastNow {
  constructor(public text: string) {
    super()
  }
  broadcastOn() {
    return ['room']
  }
}

class Whispered extends InteractsWithSockets(ShouldBroadcastNow) {
  constructor(public text: string) {
    super()
  }
  broadcastOn() {
    return ['room']
  }
}

/** A listening rt app with session logins, `POST /say` (toOthers) and `POST /mark` (to everyone). */
async function chatApp(t: ExecutionContext) {
  const rt = await rtApp(
    t,
    {},
    {
      files: { 'database/migrations/0001.ts': migration, 'routes/channels.ts': channels },
      config: {
        session: { driver: 'memory' },
        database: { default: 'main', connections: { main: { driver: 'sqlite', filename: ':memory:' } } },
        auth: { guards: { web: { driver: 'session', provider: 'authors' } }, providers: { authors: { driver: 'model', model: () => Author } } },
      },
      routes: (app: Application) => {
        app.router.group({ middleware: ['web'] }, () => {
          app.router.get('/csrf', () => null)
          app.router.post('/login-as/{id}', async ({ params, auth }) => {
            await auth.login((await Author.find(params.id))!)
            return { ok: true }
          })
          app.router.post('/say', async ({ request }) => {
            await broadcast(new Said(String(request.input('text')))).toOthers()
            return { ok: true }
          })
          app.router.post('/whisper', async ({ request }) => {
            await broadcast(new Whispered(String(request.input('text'))).dontBroadcastToCurrentUser())
            return { ok: true }
          })
          app.router.post('/mark', async ({ request }) => {
            await broadcast(new Said(String(request.input('text'))))
            return { ok: true }
          })
        })
      },
    },
  )
  await new Migrator(rt.app).migrate()
  const [ada, grace] = await runWithApp(rt.app, async () => [await Author.create({ name: 'Ada' }), await Author.create({ name: 'Grace' })])
  const login = async (id: number) => {
    const client = new TestClient(rt.app)
    await client.get('/csrf')
    t.is((await client.json('POST', `/login-as/${id}`)).status, 200)
    return client
  }
  return { rt, ada: ada!, grace: grace!, login }
}

const said = (socket: TestSocket, text: string) => socket.next((frame) => frame.event === 'Said' && frame.data?.text === text)

test("X-Socket-ID: another user's socket id is ignored (the broadcast reaches that socket); the sender's own authenticated id is left out", async (t) => {
  const { rt, ada, grace, login } = await chatApp(t)
  const adaHttp = await login(ada.id)
  const graceHttp = await login(grace.id)
  const a = await rt.connect()
  const b = await rt.connect()
  t.is((await join(a.socket, a.id, 'room')).event, 'svc:subscription_succeeded')
  t.is((await join(b.socket, b.id, 'room')).event, 'svc:subscription_succeeded')

  // Ada's socket authenticates on her private channel through /broadcasting/auth, as Echo and @kiln/rt do.
  const channel = `private-App.Models.Author.${ada.id}`
  const signed = await adaHttp.json('POST', '/broadcasting/auth', { socket_id: a.id, channel_name: channel })
  t.is(signed.status, 200)
  a.socket.send({ event: 'subscribe', data: { channel, auth: (await signed.json()).auth } })
  t.truthy(await a.socket.event('svc:subscription_succeeded', channel))

  // Grace names Ada's socket: the header is not hers, so it is ignored and Ada still hears it.
  t.is((await graceHttp.json('POST', '/say', { text: 'from grace' }, { 'x-socket-id': a.id })).status, 200)
  t.truthy(await said(a.socket, 'from grace'))
  t.truthy(await said(b.socket, 'from grace'))

  // Ada names her own socket: she is left out, Grace hears it.
  t.is((await adaHttp.json('POST', '/say', { text: 'from ada' }, { 'x-socket-id': a.id })).status, 200)
  t.truthy(await said(b.socket, 'from ada'))
  await adaHttp.json('POST', '/mark', { text: 'after' })
  t.truthy(await said(a.socket, 'after'), 'deliveries to one socket keep their order')
  t.false(
    a.socket.frames.some((frame) => frame.event === 'Said' && frame.data?.text === 'from ada'),
    "toOthers left out Ada's own socket",
  )

  // dontBroadcastToCurrentUser() (InteractsWithSockets) checks the same way.
  const whispered = (socket: TestSocket, text: string) => socket.next((frame) => frame.event === 'Whispered' && frame.data?.text === text)
  await graceHttp.json('POST', '/whisper', { text: 'grace whispers' }, { 'x-socket-id': a.id })
  t.truthy(await whispered(a.socket, 'grace whispers'))
  await adaHttp.json('POST', '/whisper', { text: 'ada whispers' }, { 'x-socket-id': a.id })
  t.truthy(await whispered(b.socket, 'ada whispers'))
  await adaHttp.json('POST', '/mark', { text: 'after whisper' })
  t.truthy(await said(a.socket, 'after whisper'))
  t.false(a.socket.frames.some((frame) => frame.event === 'Whispered' && frame.data?.text === 'ada whispers'))
})

test('X-Socket-ID: a socket that never authenticated (public channels only) is not left out, even by its own user', async (t) => {
  const { rt, grace, login } = await chatApp(t)
  const graceHttp = await login(grace.id)
  const b = await rt.connect()
  t.is((await join(b.socket, b.id, 'room')).event, 'svc:subscription_succeeded')
  t.is((await graceHttp.json('POST', '/say', { text: 'echo' }, { 'x-socket-id': b.id })).status, 200)
  const frame = await said(b.socket, 'echo')
  t.is(frame.data.socket, null, "the unverified id is not the broadcast's socket either")
})
