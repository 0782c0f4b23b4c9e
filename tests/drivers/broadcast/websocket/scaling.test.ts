import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import { Redis } from 'ioredis'
import { createApp } from '../../../../core/index.ts'
import kvDriver from '../../../../drivers/broadcast/kv/index.ts'
import { broadcasting } from '../../../../plugins/broadcasting/index.ts'
import { tempApp } from '../../../fixtures/temp-app.ts'
import { join, TestSocket } from './rt-fixtures.ts'

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
const script = fileURLToPath(new URL('./fixtures/rt-process.ts', import.meta.url))

/** Starts a real rt server process; resolves with its URL. */
function rtProcess(t: { teardown(fn: () => unknown): void }, prefix: string, env: Record<string, string> = {}): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--conditions=kiln-source', '--import=tsx', script], {
    env: { ...process.env, RT_PREFIX: prefix, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL')
  })
  return new Promise((resolve, reject) => {
    let buffer = ''
    child.stdout!.on('data', (chunk) => {
      buffer += chunk
      const line = buffer.split('\n').find((l) => l.startsWith('{'))
      if (line) resolve({ url: JSON.parse(line).url, child })
    })
    child.on('exit', (code) => reject(new Error(`rt process exited with ${code}`)))
  })
}

/** Removes the rosters a test left in Redis under its own prefix. */
function cleanRedis(t: { teardown(fn: () => unknown): void }, prefix: string) {
  t.teardown(async () => {
    const redis = new Redis(REDIS_URL)
    const keys = await redis.keys(`${prefix}*`)
    if (keys.length > 0) await redis.del(...keys)
    await redis.quit()
  })
}

async function socketOn(url: string) {
  const socket = new TestSocket(`${url.replace('http', 'ws')}/broadcasting/socket`)
  return { socket, id: await socket.ready() }
}

test.serial('two rt processes on one Redis: a broadcast from a third process reaches both; presence spans both; client events cross', async (t) => {
  const prefix = `kiln-test-${randomBytes(4).toString('hex')}:`
  cleanRedis(t, prefix)
  const [a, b] = await Promise.all([rtProcess(t, prefix), rtProcess(t, prefix)])
  const alice = await socketOn(a.url)
  const bob = await socketOn(b.url)
  t.teardown(() => {
    alice.socket.raw.terminate()
    bob.socket.raw.terminate()
  })
  await join(alice.socket, alice.id, 'news')
  await join(bob.socket, bob.id, 'news')

  // The third process (this one) broadcasts through the kv driver on the shared prefix.
  const kvApp = await createApp({
    root: tempApp(),
    env: { APP_ENV: 'test' },
    plugins: [broadcasting(), kvDriver],
    config: { broadcasting: { default: 'kv', connections: { kv: { driver: 'kv', url: REDIS_URL, prefix } } } },
  })
  t.teardown(() => kvApp.close())
  const kv = kvApp.service('broadcast').connection()
  await kv.broadcast({ channels: ['news'], event: 'Published', payload: { id: 1 } })
  t.deepEqual((await alice.socket.event('Published')).data, { id: 1 })
  t.deepEqual((await bob.socket.event('Published')).data, { id: 1 })

  const first = await join(alice.socket, alice.id, 'presence-room', { user_id: 1, user_info: { name: 'Alice' } })
  t.is(first.data.members.length, 1)
  const second = await join(bob.socket, bob.id, 'presence-room', { user_id: 2, user_info: { name: 'Bob' } })
  t.deepEqual(second.data.members.map((m: { user_id: number }) => m.user_id).sort(), [1, 2], 'here() lists both users across processes')
  t.deepEqual((await alice.socket.event('svc:member_added', 'presence-room')).data, { user_id: 2, user_info: { name: 'Bob' } })

  bob.socket.send({ event: 'client-typing', channel: 'presence-room', data: { typing: true } })
  t.deepEqual(await alice.socket.event('client-typing'), { event: 'client-typing', channel: 'presence-room', data: { typing: true }, user_id: 2 })

  // toOthers across processes: the excluded socket is skipped wherever it lives.
  await kv.broadcast({ channels: ['news'], event: 'Moved', payload: {}, socket: bob.id })
  await alice.socket.event('Moved')
  t.true(await bob.socket.nothing((f) => f.event === 'Moved'))

  bob.socket.close()
  t.deepEqual((await alice.socket.event('svc:member_removed', 'presence-room')).data, { user_id: 2 })
})

test.serial('a crashed rt process is reaped from presence rosters by the survivors', async (t) => {
  const prefix = `kiln-test-${randomBytes(4).toString('hex')}:`
  const env = { RT_HEARTBEAT: '0.3' }
  cleanRedis(t, prefix)
  const [a, b] = await Promise.all([rtProcess(t, prefix, env), rtProcess(t, prefix, env)])
  const alice = await socketOn(a.url)
  const bob = await socketOn(b.url)
  t.teardown(() => alice.socket.raw.terminate())
  await join(alice.socket, alice.id, 'presence-room', { user_id: 1 })
  await join(bob.socket, bob.id, 'presence-room', { user_id: 2 })
  await alice.socket.event('svc:member_added')
  b.child.kill('SIGKILL')
  t.deepEqual((await alice.socket.event('svc:member_removed', 'presence-room', 10_000)).data, { user_id: 2 })
  const again = await socketOn(a.url)
  t.teardown(() => again.socket.raw.terminate())
  t.deepEqual((await join(again.socket, again.id, 'presence-room', { user_id: 3 })).data.members.map((m: { user_id: number }) => m.user_id).sort(), [1, 3])
})
