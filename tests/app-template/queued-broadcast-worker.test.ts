import { randomBytes } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import { Redis } from 'ioredis'
import { appSlug, runWithApp } from '../../core/index.ts'
import { TestClient } from '../../core/testing/index.ts'
import { testComponent } from '../../plugins/comp/index.ts'
import TodoList from '../../app-template/app/components/todo-list.ts'
import { User } from '../../app-template/app/models/user.ts'
import { kilnWorker } from '../fixtures/kiln-worker.ts'
import { starterApp } from '../fixtures/starter-app.ts'

const root = fileURLToPath(new URL('../../app-template/', import.meta.url))
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

test("the starter's TodosChanged, queued when a to-do is added, is broadcast by a separate kiln queue:work process", async (t) => {
  // The starter's own config, set up by environment as a deployment would: the queue on Redis, and in the worker
  // broadcasting through Redis with kv (what the websocket servers of the web processes relay, on APP_NAME's prefix).
  const env = { APP_NAME: `starter-worker-${randomBytes(4).toString('hex')}`, QUEUE_CONNECTION: 'redis', REDIS_URL }
  const app = await starterApp(t, 'sqlite', env)
  const user = (await runWithApp(app, () => User.query().where('email', '=', 'test@example.com').first()))!

  const subscriber = new Redis(REDIS_URL)
  t.teardown(() => subscriber.disconnect())
  const channel = `${appSlug(env.APP_NAME)}:private-app.models.User.${user.id}`
  await subscriber.subscribe(channel)
  const heard = new Promise<{ event: string; data: Record<string, unknown>; id?: string }>((resolve) =>
    subscriber.on('message', (_channel, message) => resolve(JSON.parse(message) as never)),
  )
  const worker = await kilnWorker(t, root, { APP_ENV: 'test', ...env, BROADCAST_CONNECTION: 'kv' })

  await t.notThrowsAsync(testComponent(new TestClient(app).actingAs(user), TodoList).set('form.title', 'Buy milk').call('add').assertSee('Buy milk'))
  const timeout = new Promise<never>((_resolve, reject) =>
    setTimeout(() => reject(new Error(`Nothing was broadcast on ${channel}. The worker wrote:\n${worker.output()}`)), 20_000).unref(),
  )
  const message = await Promise.race([heard, timeout])
  t.is(message.event, 'TodosChanged')
  t.like(message.data, { userId: user.id })
  t.is(typeof message.id, 'string', 'the id receivers drop a second copy by')
})
