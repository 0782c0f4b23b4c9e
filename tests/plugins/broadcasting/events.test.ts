import test, { type ExecutionContext } from 'ava'
import { createApp, Event, Migrator, runWithApp, type Application } from '../../../core/index.ts'
import { TestClient } from '../../../core/testing/index.ts'
import nullDriver from '../../../drivers/broadcast/null/index.ts'
import {
  broadcast,
  broadcasting,
  Broadcast,
  flushBroadcasts,
  PrivateChannel,
  ShouldBroadcast,
  ShouldBroadcastAfterCommit,
  ShouldBroadcastNow,
} from '../../../plugins/broadcasting/index.ts'
import { Author } from '../../fixtures/database.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

class OrderShipped extends ShouldBroadcast {
  constructor(
    public author: Author,
    public note: string,
  ) {
    super()
  }
  broadcastOn() {
    return [new PrivateChannel(`orders.${this.author.id}`), 'public-feed']
  }
}
class Typing extends ShouldBroadcastNow {
  constructor(public room: string) {
    super()
  }
  broadcastOn() {
    return `presence-chat.${this.room}`
  }
  broadcastAs() {
    return 'typing'
  }
  broadcastWith() {
    return { room: this.room }
  }
}
class Audited extends ShouldBroadcastAfterCommit {
  constructor(public id: number) {
    super()
  }
  broadcastOn() {
    return ['audit']
  }
}
class Quiet extends ShouldBroadcast {
  broadcastOn() {
    return ['quiet']
  }
  broadcastWhen() {
    return false
  }
}

const migration = `import { increments } from 'kiln-framework'
export async function up(db) { await db.schema.createTable('authors').addColumn('id', ...increments(db)).addColumn('name', 'varchar(255)').addColumn('email', 'varchar(255)').addColumn('secret', 'varchar(255)').addColumn('created_at', 'timestamp').addColumn('updated_at', 'timestamp').execute() }`

async function makeApp(t: ExecutionContext): Promise<Application> {
  const app = await createApp({
    root: tempApp({ 'database/migrations/0001.ts': migration }),
    env: { APP_ENV: 'test' },
    plugins: [broadcasting(), nullDriver],
    config: {
      session: { driver: 'memory' },
      database: { default: 'main', connections: { main: { driver: 'sqlite', filename: ':memory:' } } },
      broadcasting: { default: 'null' },
    },
  })
  t.teardown(() => app.close())
  await new Migrator(app).migrate()
  return app
}

test('a ShouldBroadcast event is queued; the job captured channels and payload at dispatch time; listeners still run', async (t) => {
  const app = await makeApp(t)
  await runWithApp(app, async () => {
    const fake = Broadcast.fake()
    const listened: string[] = []
    Event.listen(OrderShipped, (e: OrderShipped) => void listened.push(e.note))
    const author = await Author.create({ name: 'Ada', secret: 'hidden' })
    await OrderShipped.dispatch(author, 'first')
    t.deepEqual(listened, ['first'])
    fake.assertBroadcastCount(0)
    author.name = 'Changed after dispatch'
    await flushBroadcasts()
    fake.assertBroadcast('OrderShipped')
    fake.assertBroadcastOn('OrderShipped', `private-orders.${author.id}`)
    fake.assertBroadcastOn('OrderShipped', 'public-feed')
    const [sent] = fake.broadcasts('OrderShipped')
    t.is((sent!.payload.author as { name: string }).name, 'Ada', 'captured at dispatch time')
    t.false('secret' in (sent!.payload.author as object), 'models are serialised with toDict (hidden removed)')
    t.is(sent!.payload.note, 'first')
    t.is(sent!.payload.socket, null)
    t.throws(() => fake.assertBroadcastOn('OrderShipped', 'elsewhere'), { message: /Expected OrderShipped on elsewhere/ })
    t.throws(() => fake.assertNotBroadcast('OrderShipped'))
  })
})

test('ShouldBroadcastNow goes out during dispatch with its own name and payload; broadcastWhen false suppresses', async (t) => {
  const app = await makeApp(t)
  await runWithApp(app, async () => {
    const fake = Broadcast.fake()
    await Typing.dispatch('lobby')
    fake.assertBroadcastOn('typing', 'presence-chat.lobby')
    t.deepEqual(fake.broadcasts('typing')[0]!.payload, { room: 'lobby' })
    await Quiet.dispatch()
    await flushBroadcasts()
    fake.assertNotBroadcast('Quiet')
    fake.assertBroadcastCount(1)
  })
})

test('ShouldBroadcastAfterCommit waits for the commit and is dropped on rollback', async (t) => {
  const app = await makeApp(t)
  const db = app.service('db')
  await runWithApp(app, async () => {
    const fake = Broadcast.fake()
    await db.transaction(async () => {
      await Audited.dispatch(1)
      await flushBroadcasts()
      fake.assertBroadcastCount(0)
    })
    await db
      .transaction(async () => {
        await Audited.dispatch(2)
        throw new Error('rollback')
      })
      .catch(() => {})
    await new Promise((r) => setTimeout(r, 10))
    await flushBroadcasts()
    t.deepEqual(
      fake.broadcasts('Audited').map((m) => m.payload.id),
      [1],
    )
  })
})

test('Event.fake swallows the broadcast too', async (t) => {
  const app = await makeApp(t)
  await runWithApp(app, async () => {
    const broadcasts = Broadcast.fake()
    const events = Event.fake()
    await Typing.dispatch('x')
    t.notThrows(() => events.assertDispatched(Typing))
    t.is(broadcasts.sent.length, 0)
  })
})

test('broadcast(event).toOthers() ignores an X-Socket-ID the requester never authenticated (socket-id.test.ts has the rest); via() picks the connection', async (t) => {
  const app = await makeApp(t)
  const fake = runWithApp(app, () => Broadcast.fake())
  app.router.post('/type', async () => {
    await broadcast(new Typing('lobby')).toOthers()
    return { ok: true }
  })
  app.router.post('/type-via', async () => {
    await broadcast(new Typing('lobby')).via('null').send()
    return { ok: true }
  })
  const client = new TestClient(app)
  await client.json('POST', '/type', {}, { 'x-socket-id': '123.456' })
  await client.json('POST', '/type', {}, { 'x-socket-id': 'not-a-socket' })
  await client.json('POST', '/type-via', {})
  t.deepEqual(
    fake.broadcasts('typing').map((m) => m.socket ?? null),
    [null, null, null],
  )
})

test('channel:list shows every pattern with its guards and handler', async (t) => {
  const app = await makeApp(t)
  await runWithApp(app, () => {
    Broadcast.channel(
      'orders.{order}',
      function ownsOrder() {
        return true
      },
      { guards: ['web', 'tok'] },
    )
  })
  const rows: Array<Record<string, unknown>> = []
  // The plugin's commands load on demand, as `kiln` loads them.
  await app.commands.load('channel:list')
  await runWithApp(app, () =>
    app.commands
      .get('channel:list')!
      .run({ app, root: app.root, cwd: app.root, args: [], flags: {}, info: () => {}, warn: () => {}, error: () => {}, table: (r) => rows.push(...r) }),
  )
  t.deepEqual(rows, [{ channel: 'orders.{order}', guards: 'web, tok', handler: 'ownsOrder', bound: '' }])
})
