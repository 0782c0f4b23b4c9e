import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import test from 'ava'
import { Redis } from 'ioredis'
import { createApp } from '../../../core/index.ts'
import kvDriver from '../../../drivers/kv/index.ts'
import { broadcasting, BroadcastManager } from '../../../plugins/broadcasting/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { broadcasterSuite } from '../../plugins/broadcasting/broadcaster-contract.ts'

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

/** Collects what arrives on `<prefix>*` through a real subscriber. */
function listen(t: { teardown(fn: () => unknown): void }, prefix: string) {
  const subscriber = new Redis(REDIS_URL)
  const seen: Array<{ channel: string; message: any }> = []
  subscriber.on('pmessage', (_p, channel, text) => seen.push({ channel, message: JSON.parse(text) }))
  t.teardown(() => subscriber.quit())
  return { seen, ready: subscriber.psubscribe(`${prefix}*`) }
}

const waitFor = async (check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms
  while (!check() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20))
  return check()
}

// Delivery is asserted below with a real subscriber; the contract covers config, signing and multi-channel broadcasts.
broadcasterSuite(test, 'kv', [kvDriver], { url: REDIS_URL, prefix: 'kv-contract:' })

async function kvApp(t: { teardown(fn: () => unknown): void }, connection: Record<string, unknown>) {
  const app = await createApp({
    root: tempApp(),
    env: { APP_ENV: 'test' },
    plugins: [broadcasting(), kvDriver],
    config: { broadcasting: { default: 'kv', connections: { kv: { driver: 'kv', ...connection } } } },
  })
  t.teardown(() => app.close())
  return app
}

test('kv publishes {event, data, socket} on <prefix><channel>, one message per channel', async (t) => {
  const { seen, ready } = listen(t, 'kv-a:')
  await ready
  const app = await kvApp(t, { url: REDIS_URL, prefix: 'kv-a:' })
  await app.service<BroadcastManager>('broadcast').connection().broadcast({ channels: ['orders.1', 'private-orders.1'], event: 'OrderShipped', payload: { id: 1 }, socket: '12.34' })
  t.true(await waitFor(() => seen.length === 2))
  t.deepEqual(seen.map((s) => s.channel).sort(), ['kv-a:orders.1', 'kv-a:private-orders.1'])
  t.deepEqual(seen[0].message, { event: 'OrderShipped', data: { id: 1 }, socket: '12.34' })
})

test('two prefixes on one Redis do not cross-talk', async (t) => {
  const shop = listen(t, 'kv-shop:')
  const blog = listen(t, 'kv-blog:')
  await Promise.all([shop.ready, blog.ready])
  const app = await kvApp(t, { url: REDIS_URL, prefix: 'kv-shop:' })
  await app.service<BroadcastManager>('broadcast').connection().broadcast({ channels: ['news'], event: 'Sale', payload: {} })
  t.true(await waitFor(() => shop.seen.length === 1))
  t.is(blog.seen.length, 0)
  t.is(shop.seen[0].message.socket, null)
})

/** A free TCP port for a Redis server this test owns. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'ignore'] })
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      if (String(chunk).includes('Ready to accept connections')) resolve(child)
    })
    child.on('error', reject)
  })
}

test.serial('Redis down: the broadcast fails with a clear error and the app keeps serving; it recovers when Redis returns', async (t) => {
  const port = await freePort()
  let redis = await startRedis(port)
  t.teardown(() => redis.kill('SIGKILL'))
  const app = await kvApp(t, { url: `redis://127.0.0.1:${port}`, prefix: 'kv-outage:' })
  app.router.get('/ping', () => ({ ok: true }))
  const kv = app.service<BroadcastManager>('broadcast').connection()
  await t.notThrowsAsync(kv.broadcast({ channels: ['news'], event: 'Before', payload: {} }))

  redis.kill('SIGKILL')
  await new Promise((resolve) => redis.once('exit', resolve))
  const error = await t.throwsAsync(kv.broadcast({ channels: ['news'], event: 'During', payload: { secret: 'never-logged' } }))
  t.regex(error!.message, /Broadcast connection "kv" \(kv\) could not publish \[During\]: Redis is unreachable/)
  t.notRegex(error!.message, /never-logged/)
  t.is((await app.request('/ping')).status, 200, 'the app keeps serving')

  redis = await startRedis(port)
  const listener = new Redis(`redis://127.0.0.1:${port}`)
  t.teardown(() => listener.disconnect())
  const seen: string[] = []
  listener.on('pmessage', (_p, _c, text) => seen.push(JSON.parse(text).event))
  await listener.psubscribe('kv-outage:*')
  t.true(await waitFor(() => {
    kv.broadcast({ channels: ['news'], event: 'After', payload: {} }).catch(() => {})
    return seen.includes('After')
  }, 10_000), 'the same broadcaster reconnects by itself')
})

test.serial('Redis down: a queued broadcast fails, is retried by the queue, and goes out once Redis is back', async (t) => {
  const { ShouldBroadcast, Channel, flushBroadcasts } = await import('../../../plugins/broadcasting/index.ts')
  class Shipped extends ShouldBroadcast {
    constructor(public id: number) {
      super()
    }
    broadcastOn() {
      return [new Channel('orders')]
    }
  }
  const port = await freePort()
  let redis = await startRedis(port)
  t.teardown(() => redis.kill('SIGKILL'))
  const root = tempApp()
  const app = await createApp({
    root,
    env: { APP_ENV: 'test' },
    plugins: [broadcasting(), kvDriver],
    config: {
      logging: { level: 'info', channels: ['file'], file: { path: 'storage/logs/kv.log' } },
      queue: { default: 'memory', connections: { memory: { driver: 'memory' } } },
      broadcasting: { default: 'kv', connections: { kv: { driver: 'kv', url: `redis://127.0.0.1:${port}`, prefix: 'kv-retry:' } } },
    },
  })
  t.teardown(() => app.close())
  redis.kill('SIGKILL')
  await new Promise((resolve) => redis.once('exit', resolve))
  const { runWithApp } = await import('../../../core/index.ts')
  await runWithApp(app, () => Shipped.dispatch(7))
  // The first attempt fails while Redis is down; the job's backoff (1 s) leaves time to bring it back.
  redis = await startRedis(port)
  const listener = new Redis(`redis://127.0.0.1:${port}`)
  t.teardown(() => listener.disconnect())
  const seen: any[] = []
  listener.on('pmessage', (_p, channel, text) => seen.push({ channel, message: JSON.parse(text) }))
  await listener.psubscribe('kv-retry:*')
  await runWithApp(app, () => flushBroadcasts())
  t.true(await waitFor(() => seen.length === 1, 10_000), 'the retried job published the broadcast')
  t.deepEqual(seen[0], { channel: 'kv-retry:orders', message: { event: 'Shipped', data: { id: 7, socket: null }, socket: null } })
  const { readFileSync } = await import('node:fs')
  t.regex(readFileSync(`${root}/storage/logs/kv.log`, 'utf8'), /kv broadcast failed: Redis is unreachable/, 'the first attempt failed and was logged')
})
