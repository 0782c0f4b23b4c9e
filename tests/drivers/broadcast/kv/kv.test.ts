import { existsSync, readFileSync } from 'node:fs'
import test from 'ava'
import { Redis } from 'ioredis'
import { createApp, runWithApp } from '../../../../core/index.ts'
import kvDriver, { DRIVER_NAME, KvBroadcaster } from '../../../../drivers/broadcast/kv/index.ts'
import websocketDriver from '../../../../drivers/broadcast/websocket/index.ts'
import {
  broadcast,
  broadcasting,
  Channel,
  flushBroadcasts,
  PrivateChannel,
  ShouldBroadcast,
  ShouldBroadcastNow,
} from '../../../../plugins/broadcasting/index.ts'
import { tempApp } from '../../../fixtures/temp-app.ts'
import { testBroadcaster } from '../../../contracts/broadcaster.contract.ts'
import { freePort, redisServer, waitFor } from '../../../fixtures/redis-server.ts'

type T = { teardown(fn: () => unknown): void }
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
const fileLog = { level: 'info', channels: ['file'], file: { path: 'storage/logs/kv.log' } }

// The contract, observed by a real Redis subscriber on the connection's own prefix; unreachable is a closed port.
let contractPrefixes = 0
testBroadcaster(DRIVER_NAME, {
  plugins: [kvDriver],
  connection: () => ({ url: REDIS_URL, prefix: `kv-contract-${process.pid}-${++contractPrefixes}:` }),
  observe: async ({ t, connection }) => {
    const prefix = String(connection.prefix)
    const seen = await subscriber(t, [`${prefix}*`])
    return () =>
      seen.map(({ channel, text }) => {
        const { event, data, socket } = JSON.parse(text) as { event: string; data: unknown; socket: string | null }
        return { channel: channel.slice(prefix.length), event, data, raw: text, except: socket }
      })
  },
  can: { deliver: true, toOthers: 'marked', encrypt: true },
  unreachable: {
    connection: { url: `redis://127.0.0.1:${await freePort()}` },
    error: /^Broadcast connection "main" \(kv\) could not publish \[.+\] to redis:\/\/127\.0\.0\.1:\d+: Redis is unreachable/,
  },
})

/** A real subscriber on exact channel names or `pattern*`s; `seen` fills as messages arrive. */
async function subscriber(t: T, names: string[], url = REDIS_URL) {
  const client = new Redis(url)
  client.on('error', () => {})
  t.teardown(() => client.disconnect())
  const seen: Array<{ channel: string; text: string }> = []
  client.on('message', (channel: string, text: string) => seen.push({ channel, text }))
  client.on('pmessage', (_pattern: string, channel: string, text: string) => seen.push({ channel, text }))
  const patterns = names.filter((name) => name.endsWith('*'))
  const exact = names.filter((name) => !name.endsWith('*'))
  if (patterns.length > 0) await client.psubscribe(...patterns)
  if (exact.length > 0) await client.subscribe(...exact)
  return seen
}

async function kvApp(t: T, connection: Record<string, unknown>, config: Record<string, unknown> = {}) {
  const app = await createApp({
    root: tempApp(),
    env: { APP_ENV: 'test' },
    plugins: [broadcasting(), kvDriver],
    config: { ...config, broadcasting: { default: 'kv', connections: { kv: { driver: 'kv', ...connection } } } },
  })
  t.teardown(() => app.close())
  return app
}

const kvOf = (app: Awaited<ReturnType<typeof kvApp>>) => app.service('broadcast').connection() as KvBroadcaster

class OrderShipped extends ShouldBroadcastNow {
  constructor(public id: number) {
    super()
  }
  broadcastOn() {
    return [new Channel(`orders.${this.id}`), new PrivateChannel(`orders.${this.id}`)]
  }
}

test('a subscriber on <prefix>orders.1 receives exactly {event, data, socket}, with the socket of toOthers()', async (t) => {
  const seen = await subscriber(t, ['kv-a:orders.1', 'kv-a:private-orders.1'])
  const app = await kvApp(t, { url: REDIS_URL, prefix: 'kv-a:' })
  app.router.post('/ship', async ({ request }) => {
    // toOthers() honours only a socket the requester authenticated (tests/plugins/broadcasting/socket-id.test.ts): set it here.
    const event = new OrderShipped(1)
    event.socket = request.header('x-socket-id')
    await broadcast(event)
    return { ok: true }
  })
  const response = await app.request('/ship', { method: 'POST', headers: { 'x-socket-id': '123.456' } })
  t.is(response.status, 200)
  t.true(await waitFor(() => seen.length === 2))
  t.deepEqual(seen.map((s) => s.channel).sort(), ['kv-a:orders.1', 'kv-a:private-orders.1'])
  const ids = new Set<string>()
  for (const { text } of seen) {
    const { id, ...rest } = JSON.parse(text)
    t.deepEqual(Object.keys(JSON.parse(text)), ['event', 'data', 'socket', 'id'])
    t.deepEqual(rest, { event: 'OrderShipped', data: { id: 1, socket: '123.456' }, socket: '123.456' })
    t.regex(id, /^[0-9a-f-]{36}$/, 'the broadcast id, the same on every channel, for receivers to drop copies')
    ids.add(id)
  }
  t.is(ids.size, 1)
  t.is((await kvOf(app).getInstance()).status, 'ready', 'getInstance() is the ioredis client')
})

test('without toOthers() the socket is null; two prefixes on one Redis do not cross-talk', async (t) => {
  const shop = await subscriber(t, ['kv-shop:*'])
  const blog = await subscriber(t, ['kv-blog:*'])
  const shopApp = await kvApp(t, { url: REDIS_URL, prefix: 'kv-shop:' })
  const blogApp = await kvApp(t, { url: REDIS_URL, prefix: 'kv-blog:' })
  await kvOf(shopApp).broadcast({ channels: ['news'], event: 'Sale', payload: { pct: 10 } })
  // Sent after the shop's, so once it arrives the shop's would have arrived too had it crossed over.
  await kvOf(blogApp).broadcast({ channels: ['news'], event: 'Posted', payload: {} })
  t.true(await waitFor(() => shop.length === 1 && blog.length === 1))
  t.deepEqual(shop, [{ channel: 'kv-shop:news', text: '{"event":"Sale","data":{"pct":10},"socket":null}' }])
  t.deepEqual(blog, [{ channel: 'kv-blog:news', text: '{"event":"Posted","data":{},"socket":null}' }])
})

test('the default prefix is kiln:', async (t) => {
  const seen = await subscriber(t, ['kiln:kv-default-prefix'])
  const app = await kvApp(t, { url: REDIS_URL })
  await kvOf(app).broadcast({ channels: ['kv-default-prefix'], event: 'Hello', payload: {} })
  t.true(await waitFor(() => seen.length === 1))
})

test.serial(
  'Redis down: broadcasts fail with a clear error and one logged warning for the outage, the app keeps serving, and it recovers by itself',
  async (t) => {
    const port = await freePort()
    const password = 's3cret-pw'
    const redis = await redisServer(t, port, password)
    const url = `redis://:${password}@127.0.0.1:${port}`
    const app = await kvApp(t, { url, prefix: 'kv-outage:' }, { logging: fileLog })
    app.router.get('/ping', () => ({ ok: true }))
    const kv = kvOf(app)
    const before = await subscriber(t, ['kv-outage:*'], url)
    await kv.broadcast({ channels: ['news'], event: 'Before', payload: {} })
    t.true(await waitFor(() => before.length === 1))

    await redis.stop()
    const error = await t.throwsAsync(kv.broadcast({ channels: ['news'], event: 'During', payload: { card: 'never-logged' } }))
    t.regex(
      error!.message,
      new RegExp(`^Broadcast connection "kv" \\(kv\\) could not publish \\[During\\] to redis://127\\.0\\.0\\.1:${port}: Redis is unreachable`),
    )
    t.notRegex(error!.message, /never-logged|s3cret-pw/)
    for (let i = 0; i < 3; i++) await t.throwsAsync(kv.broadcast({ channels: ['news'], event: 'During', payload: {} }))
    t.is((await app.request('/ping')).status, 200, 'the app keeps serving')

    await redis.start()
    const after = await subscriber(t, ['kv-outage:*'], url)
    // The client reconnects on its own schedule; until then each broadcast fails fast.
    t.true(
      await waitFor(
        () =>
          kv.broadcast({ channels: ['news'], event: 'After', payload: {} }).then(
            () => true,
            () => false,
          ),
        15_000,
      ),
      'the same broadcaster reconnects by itself',
    )
    t.true(await waitFor(() => after.some(({ text }) => JSON.parse(text).event === 'After')))

    const log = readFileSync(`${app.root}/storage/logs/kv.log`, 'utf8')
    t.notRegex(log, /"level":50/, 'no error line per failed broadcast')
    t.is(log.match(/kv: Redis connection lost; reconnecting/g)?.length, 1, 'one warning for the outage, not one per reconnect attempt or broadcast')
    t.regex(log, /kv: Redis connection restored/)
    t.notRegex(log, /never-logged|s3cret-pw/, 'no payload and no password in the log')
  },
)

test.serial(
  'Redis hung: one broadcast waits out the timeout, the next fail at once; it works once Redis answers, and the stall and a later outage get a warning each',
  async (t) => {
    const port = await freePort()
    const redis = await redisServer(t, port)
    const url = `redis://127.0.0.1:${port}`
    const app = await kvApp(t, { url, prefix: 'kv-hung:', timeout: 300 }, { logging: fileLog })
    const kv = kvOf(app)
    await kv.broadcast({ channels: ['news'], event: 'Before', payload: {} })
    redis.pause()
    await t.throwsAsync(kv.broadcast({ channels: ['news'], event: 'Stuck', payload: {} }), {
      message: /could not publish \[Stuck\].*Redis is unreachable \(Command timed out\)/,
    })
    // The hung connection was dropped: the next broadcast is refused without waiting for another timeout.
    await t.throwsAsync(kv.broadcast({ channels: ['news'], event: 'Stuck', payload: {} }), { message: /Redis is unreachable \((?!Command timed out)/ })
    redis.resume()
    const seen = await subscriber(t, ['kv-hung:*'], url)
    const works = () =>
      waitFor(
        () =>
          kv.broadcast({ channels: ['news'], event: 'Again', payload: {} }).then(
            () => true,
            () => false,
          ),
        10_000,
      )
    t.true(await works())
    t.true(await waitFor(() => seen.some(({ text }) => JSON.parse(text).event === 'Again')))

    await redis.stop()
    await t.throwsAsync(kv.broadcast({ channels: ['news'], event: 'Down', payload: {} }))
    await redis.start()
    t.true(await works())
    const log = readFileSync(`${app.root}/storage/logs/kv.log`, 'utf8')
    t.is(log.match(/kv: Redis connection lost; reconnecting/g)?.length, 2, 'the stall and the outage')
    t.is(log.match(/kv: Redis connection restored/g)?.length, 2)
  },
)

test.serial('Redis down at first use: broadcasts fail until it starts, then go out; close() quits the client', async (t) => {
  const port = await freePort()
  const url = `redis://127.0.0.1:${port}`
  const app = await kvApp(t, { url, prefix: 'kv-late:' })
  const kv = kvOf(app)
  await t.throwsAsync(kv.broadcast({ channels: ['news'], event: 'Early', payload: {} }), { message: /Redis is unreachable/ })
  await redisServer(t, port)
  const seen = await subscriber(t, ['kv-late:*'], url)
  t.true(
    await waitFor(
      () =>
        kv.broadcast({ channels: ['news'], event: 'Late', payload: {} }).then(
          () => true,
          () => false,
        ),
      15_000,
    ),
  )
  t.true(await waitFor(() => seen.length > 0))
  t.is(JSON.parse(seen[0]!.text).event, 'Late')

  const watcher = new Redis(url)
  t.teardown(() => watcher.disconnect())
  const clients = async () =>
    String(await watcher.client('LIST'))
      .trim()
      .split('\n').length
  const withKv = await clients()
  await app.close()
  t.true(await waitFor(async () => (await clients()) === withKv - 1), 'the broadcaster quit its connection')
})

test.serial('Redis down: a queued broadcast fails, is retried by the queue, and goes out once Redis is back', async (t) => {
  class Shipped extends ShouldBroadcast {
    constructor(public id: number) {
      super()
    }
    broadcastOn() {
      return [new Channel('orders')]
    }
  }
  const port = await freePort()
  const redis = await redisServer(t, port)
  const url = `redis://127.0.0.1:${port}`
  const app = await kvApp(t, { url, prefix: 'kv-retry:' }, { logging: fileLog, queue: { default: 'memory', connections: { memory: { driver: 'memory' } } } })
  await redis.stop()
  await runWithApp(app, () => Shipped.dispatch(7))
  // Redis comes back only once the first attempt has failed and said so (the file log is written a moment later):
  // the retry is what this test is about, and on a busy machine Redis could otherwise be back before the first try.
  const log = `${app.root}/storage/logs/kv.log`
  const outageLogged = () => existsSync(log) && /kv: Redis connection lost/.test(readFileSync(log, 'utf8'))
  t.true(await waitFor(outageLogged, 10_000), 'the first attempt failed and the outage was logged')
  // The job's backoff (1 s, then 5 s) leaves time to bring it back.
  await redis.start()
  const seen = await subscriber(t, ['kv-retry:*'], url)
  await runWithApp(app, () => flushBroadcasts())
  t.true(await waitFor(() => seen.length === 1, 10_000), 'the retried job published the broadcast')
  t.is(seen[0]!.channel, 'kv-retry:orders')
  const { id, ...message } = JSON.parse(seen[0]!.text)
  t.deepEqual(message, { event: 'Shipped', data: { id: 7, socket: null }, socket: null })
  t.regex(id, /^[0-9a-f-]{36}$/)
})

test("REDIS_URL comes from the app's environment (.env), not only the process's: kv, rt's scaling and their readiness checks use it", async (t) => {
  const port = await freePort()
  await redisServer(t, port)
  const url = `redis://127.0.0.1:${port}`
  const seen: string[] = []
  const listener = new Redis(url)
  t.teardown(() => listener.quit())
  listener.on('pmessage', (_pattern, channel) => seen.push(channel))
  await listener.psubscribe('env-url-*')
  const apps = await Promise.all(
    [{ kv: { driver: 'kv', prefix: 'env-url-kv:' } }, { rt: { driver: 'rt', key: 'k', secret: 's', scaling: { enabled: true, prefix: 'env-url-rt:' } } }].map(
      (connections) =>
        createApp({
          root: tempApp(),
          // The app's own variables (a .env, or createApp's env), which process.env does not have.
          env: { APP_ENV: 'test', REDIS_URL: url },
          plugins: [broadcasting(), kvDriver, websocketDriver],
          config: { broadcasting: { default: Object.keys(connections)[0], connections }, http: { health: '/up' }, logging: { level: 'silent' } },
        }),
    ),
  )
  for (const app of apps) {
    t.teardown(() => app.close())
    await app.service('broadcast').send({ channels: ['news'], event: 'Sale', payload: {} })
    const ready = await app.request('/up?ready')
    t.is(ready.status, 200, await ready.clone().text())
  }
  t.true(await waitFor(() => seen.includes('env-url-kv:news') && seen.includes('env-url-rt:news')), seen.join(', '))
})
