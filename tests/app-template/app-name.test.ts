import { randomBytes } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import { Redis } from 'ioredis'
import { runWithApp, type Application } from '../../core/index.ts'
import { createTestApp, refreshDatabase, TestClient } from '../../core/testing/index.ts'
import type { KvBroadcaster } from '../../drivers/broadcast/kv/index.ts'
import type { WebsocketBroadcaster } from '../../drivers/broadcast/websocket/index.ts'
import seed from '../../app-template/database/seeders/index.ts'

const root = fileURLToPath(new URL('../../app-template/', import.meta.url))
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

async function starter(t: { teardown(fn: () => unknown): void }, env: Record<string, string>): Promise<Application> {
  const app = await createTestApp({ root, env })
  t.teardown(() => app.close())
  await refreshDatabase(app)
  await runWithApp(app, () => seed())
  return app
}

/** What a browser does with two apps on one host (cookies ignore the port): both see one cookie jar. */
function shareCookies(from: TestClient, to: TestClient): void {
  to.cookies.clear()
  for (const [name, cookie] of from.cookies) to.cookies.set(name, cookie)
}

test('two starter apps with different APP_NAMEs on one host: different session cookies, so a visit to one keeps the login of the other', async (t) => {
  const shop = await starter(t, { APP_NAME: 'Shop' })
  const blog = await starter(t, { APP_NAME: 'Blog Admin' })
  const atShop = new TestClient(shop)
  const atBlog = new TestClient(blog)

  t.true((await atShop.get('/')).cookies.has('shop_session'))
  t.is((await atShop.json('POST', '/login', { email: 'test@example.com', password: 'password' })).status, 200)

  shareCookies(atShop, atBlog)
  const blogHome = await atBlog.get('/', { accept: 'text/html' })
  t.true(blogHome.cookies.has('blog_admin_session'))
  t.false(blogHome.cookies.has('shop_session'), 'the blog leaves the shop cookie alone')
  t.notRegex(await blogHome.text(), /Welcome back/, 'the shop login does not log into the blog')

  shareCookies(atBlog, atShop)
  t.regex(await (await atShop.get('/', { accept: 'text/html' })).text(), /Welcome back, Test User\./)
})

test('an app left with the default name keeps kiln_session; SESSION_COOKIE names it outright', async (t) => {
  const plain = await starter(t, {})
  t.true((await new TestClient(plain).get('/')).cookies.has('kiln_session'))
  const named = await starter(t, { APP_NAME: 'Shop', SESSION_COOKIE: 'shop_sid' })
  t.true((await new TestClient(named).get('/')).cookies.has('shop_sid'))
})

test("Redis keys carry the app's name: sessions, storage stores, and the kv and rt broadcast prefixes", async (t) => {
  const name = `Shop ${randomBytes(3).toString('hex')}`
  const slug = name.toLowerCase().replace(' ', '_')
  const app = await starter(t, { APP_NAME: name, SESSION_DRIVER: 'redis', CACHE_STORE: 'redis', REDIS_URL })
  const redis = new Redis(REDIS_URL)
  t.teardown(async () => {
    const keys = await redis.keys(`${slug}:*`)
    if (keys.length) await redis.del(...keys)
    redis.disconnect()
  })

  const visitor = new TestClient(app)
  await visitor.get('/')
  t.deepEqual(await redis.keys(`${slug}:sessions:*`), [], 'a visitor whose session holds nothing is not stored')
  // A failed form login flashes its errors and old input: now the session holds something.
  t.is((await visitor.post('/login', new URLSearchParams({ email: 'test@example.com', password: 'wrong' }), { accept: 'text/html' })).status, 302)
  const sessions = await redis.keys(`${slug}:sessions:*`)
  t.is(sessions.length, 1, 'the session is stored under <slug>:sessions:')

  await runWithApp(app, () => app.service('storage').store('cache').setItem('stats', { users: 3 }))
  t.deepEqual(await redis.keys(`${slug}:cache:*`), [`${slug}:cache:stats`])

  const broadcast = app.service('broadcast')
  t.is((broadcast.connection('kv') as KvBroadcaster).prefix, `${slug}:`)
  t.is((broadcast.connection('rt') as WebsocketBroadcaster).server.config.scaling.prefix, `${slug}:`, 'rt scales on the prefix kv publishes to')
})
