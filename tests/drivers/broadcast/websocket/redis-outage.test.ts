import test from 'ava'
import { Redis } from 'ioredis'
import { createApp, Model, runWithApp } from '../../../../core/index.ts'
import kvDriver from '../../../../drivers/broadcast/kv/index.ts'
import { broadcasting, Channel, flushBroadcasts, Notifiable, Notification, ShouldBroadcast } from '../../../../plugins/broadcasting/index.ts'
import { waitFor } from '../../../fixtures/redis-server.ts'
import { tempApp } from '../../../fixtures/temp-app.ts'
import { join, type Frame } from './rt-fixtures.ts'
import { logLines, rtCluster, userIds } from './scaling-fixtures.ts'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function eventually(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 8000): Promise<void> {
  if (!(await waitFor(check, timeoutMs))) throw new Error(`Not within ${timeoutMs} ms: ${what}`)
}

test.serial('presence rosters heal after FLUSHALL and after an outage that lost every key; clients end up seeing every member', async (t) => {
  const {
    redis,
    url,
    nodes: [a, b],
  } = await rtCluster(t)
  const alice = await a.connect()
  const bob = await b.connect()
  await join(alice.socket, alice.id, 'presence-room', { user_id: 1 })
  await join(bob.socket, bob.id, 'presence-room', { user_id: 2 })
  await eventually(async () => (await userIds(a, 'presence-room')).length === 2, 'both users on the roster')

  const admin = new Redis(url)
  admin.on('error', () => {})
  t.teardown(() => admin.disconnect())
  await admin.flushall()
  t.deepEqual(await userIds(a, 'presence-room'), [], 'FLUSHALL emptied the roster')
  await eventually(async () => (await userIds(a, 'presence-room')).join() === '1,2', 'each node re-recorded its members after FLUSHALL')

  // 20 heartbeats without Redis, and it comes back empty (no persistence): the other node looks dead and must not stay reaped.
  await redis.stop()
  await sleep(1500)
  await redis.start()
  await eventually(async () => (await userIds(a, 'presence-room').catch(() => [])).join() === '1,2', 'both users back on the roster after the outage')
  t.deepEqual(await userIds(b, 'presence-room'), [1, 2])

  // Alice's page may have been told Bob left while his node looked dead; it must also have been told he is back.
  const bobEvents = alice.socket.frames.filter((f: Frame) => f.channel === 'presence-room' && f.data?.user_id === 2)
  const last = bobEvents.at(-1)
  t.true(last === undefined || last.event === 'svc:member_added', JSON.stringify(bobEvents))
})

test.serial(
  'a subscribe while Redis is down or stalled is refused at once with svc:error 4310 and is not half-made; the log has one warning per outage',
  async (t) => {
    const {
      redis,
      nodes: [a],
    } = await rtCluster(t)
    const alice = await a.connect()

    await redis.stop()
    const started = Date.now()
    const refused = await join(alice.socket, alice.id, 'news')
    t.is(refused.event, 'svc:error')
    t.is(refused.data.code, 4310)
    // A hang check, not a speed test: before, a subscribe waited for Redis as long as it was gone.
    t.true(Date.now() - started < 3000)
    for (let i = 0; i < 3; i++) t.is((await join(alice.socket, alice.id, `news-${i}`)).data.code, 4310)

    await redis.start()
    await eventually(async () => (await join(alice.socket, alice.id, 'news')).event === 'svc:subscription_succeeded', 'subscribing works again')
    await a.broadcaster.broadcast({ channels: ['news-0'], event: 'Leak', payload: {} })
    t.true(await alice.socket.nothing((f) => f.event === 'Leak'), 'the refused subscription was rolled back, so nothing arrives on it')

    redis.pause()
    const stalled = Date.now()
    t.is((await join(alice.socket, alice.id, 'stalled')).data.code, 4310)
    t.true(Date.now() - stalled < 3000)
    redis.resume()

    await a.app.close()
    const warnings = logLines(a!).filter((line) => line.level === 40 && /Redis is unreachable/.test(line.msg))
    t.is(warnings.length, 2, `one warning for the outage and one for the stall: ${JSON.stringify(warnings)}`)
  },
)

test.serial('a broadcast that arrives twice (a kv publish retried after it went through) is delivered once', async (t) => {
  const {
    url,
    nodes: [a, b],
  } = await rtCluster(t)
  const alice = await a.connect()
  const bob = await b.connect()
  await join(alice.socket, alice.id, 'news')
  await join(bob.socket, bob.id, 'news')
  const app = await createApp({
    root: tempApp(),
    env: { APP_ENV: 'test' },
    plugins: [broadcasting(), kvDriver],
    config: { broadcasting: { default: 'kv', connections: { kv: { driver: 'kv', url, prefix: 'cluster:' } } } },
  })
  t.teardown(() => app.close())
  const kv = app.service('broadcast').connection()
  const counts = [alice, bob].map(({ socket }) => {
    const seen: number[] = []
    socket.raw.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Frame
      if (frame.event === 'Once') seen.push(frame.data.n)
    })
    return seen
  })
  for (let i = 0; i < 2; i++) await kv.broadcast({ channels: ['news'], event: 'Once', payload: { n: 1 }, id: 'broadcast-1' })
  await kv.broadcast({ channels: ['news'], event: 'Once', payload: { n: 2 }, id: 'broadcast-2' })
  await eventually(() => counts.every((seen) => seen.includes(2)), 'the last broadcast arrived everywhere')
  t.deepEqual(counts, [
    [1, 2],
    [1, 2],
  ])
})

class Shipped extends ShouldBroadcast {
  broadcastOn() {
    return [new Channel('alerts')]
  }
}
class Operator extends Notifiable(Model) {
  static table = 'operators'
  override routeNotificationForBroadcast() {
    return ['alerts']
  }
}
class Paged extends Notification {
  via() {
    return ['broadcast']
  }
  toBroadcast() {
    return { level: 'high' }
  }
}

// Keeps Redis busy (as a slow command or script would) for ARGV[1] ms: everything sent meanwhile waits, then runs.
const BUSY = `local function now() local t = redis.call('TIME') return t[1] * 1000000 + t[2] end
local start = now()
while now() - start < tonumber(ARGV[1]) * 1000 do end
return 1`

test.serial(
  'queued broadcasts whose kv publish timed out on a busy Redis, which then published them anyway, reach each socket once after the retry (events and notifications)',
  async (t) => {
    const {
      url,
      nodes: [a],
    } = await rtCluster(t, { nodes: 1 })
    const alice = await a!.connect()
    await join(alice.socket, alice.id, 'alerts')
    const sender = await createApp({
      root: tempApp(),
      env: { APP_ENV: 'test' },
      plugins: [broadcasting(), kvDriver],
      config: {
        queue: { default: 'memory', connections: { memory: { driver: 'memory' } } },
        broadcasting: { default: 'kv', connections: { kv: { driver: 'kv', url, prefix: 'cluster:', timeout: 300 } } },
      },
    })
    t.teardown(() => sender.close())
    await sender
      .service('broadcast')
      .connection()
      .broadcast({ channels: ['warm-up'], event: 'Connected', payload: {} })
    const admin = new Redis(url)
    t.teardown(() => admin.disconnect())
    await admin.ping()

    // Redis is busy for 1 s: the first attempts time out after 300 ms, Redis publishes them when it is free, and the jobs retry 1 s after failing.
    const busy = admin.eval(BUSY, 0, '1000')
    await sleep(50)
    await runWithApp(sender, async () => {
      await Shipped.dispatch()
      await new Operator().notify(new Paged())
    })
    await busy
    await runWithApp(sender, () => flushBroadcasts())
    const names = () =>
      alice.socket.frames
        .map((frame) => frame.event)
        .filter((name) => name !== 'svc:subscription_succeeded')
        .sort()
    t.true(await waitFor(() => names().length >= 2))
    await sleep(300)
    t.deepEqual(names(), ['BroadcastNotificationCreated', 'Shipped'])
  },
)
