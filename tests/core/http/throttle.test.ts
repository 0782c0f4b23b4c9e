import test from 'ava'
import { createApp, Limit, RateLimiter, runWithApp } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

const redisStore = (prefix: string) => ({
  http: { throttle_store: 'shared' },
  storage: { stores: { shared: { driver: 'redis', url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix } } },
})

for (const store of ['memory', 'redis'] as const) {
  test(`throttle:<max>,<minutes> is atomic (${store}): 30 parallel requests on a real server let exactly 10 through`, async (t) => {
    const config = store === 'redis' ? redisStore(`throttle-atomic-${Date.now()}`) : {}
    const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' }, config })
    t.teardown(() => app.close())
    app.router.post('/limited', () => ({ ok: true })).middleware(['throttle:10,1'])
    const server = await app.listen({ port: 0 })
    const statuses = await Promise.all(
      Array.from({ length: 30 }, () => fetch(`${server.url}/limited`, { method: 'POST', headers: { accept: 'application/json' } }).then((res) => res.status)),
    )
    t.is(statuses.filter((status) => status === 200).length, 10)
    t.is(statuses.filter((status) => status === 429).length, 20)
  })
}

test('a named limiter keys by what it says, may hold several limits, and an unknown name or bad parameters fail at boot', async (t) => {
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' } })
  t.teardown(() => app.close())
  runWithApp(app, () => RateLimiter.for('search', ({ request }) => [Limit.perMinute(3).by(String(request.input('q'))), Limit.perHour(100).by('all')]))
  app.router.get('/search', () => ({ ok: true })).middleware(['throttle:search'])
  const get = (q: string) => app.request(`/search?q=${q}`, { headers: { accept: 'application/json' } })
  const a = [await get('a'), await get('a'), await get('a'), await get('a')].map((res) => res.status)
  t.deepEqual(a, [200, 200, 200, 429])
  t.is((await get('b')).status, 200)
  t.is((await get('b')).headers.get('x-ratelimit-remaining'), '1')

  for (const ref of ['throttle:nope', 'throttle:0,1', 'throttle:x,y,z', 'throttle:5,0']) {
    const other = await createApp({ root: tempApp(), env: { APP_ENV: 'test' } })
    t.teardown(() => other.close())
    other.router.get('/x', () => 'x').middleware([ref])
    const error = t.throws(() => other.service('http').compileAll())
    t.regex(error!.message, /Route GET \/x: Middleware "throttle:/, ref)
  }
})

test('limits in Redis are shared by two apps (two processes in production) on the same store', async (t) => {
  const config = redisStore(`throttle-test-${Date.now()}`)
  const apps = await Promise.all([0, 1].map(() => createApp({ root: tempApp(), env: { APP_ENV: 'test' }, config })))
  for (const app of apps) {
    t.teardown(() => app.close())
    app.router.post('/limited', () => ({ ok: true })).middleware(['throttle:4,1'])
  }
  const statuses: number[] = []
  for (let i = 0; i < 6; i++) statuses.push((await apps[i % 2]!.request('/limited', { method: 'POST', headers: { accept: 'application/json' } })).status)
  t.deepEqual(statuses, [200, 200, 200, 200, 429, 429])
})

test('limits in Redis are kept per app: two apps on one Redis store without a prefix count apart, each under its APP_NAME', async (t) => {
  const stamp = Date.now()
  const config = {
    http: { throttle_store: 'shared' },
    storage: { stores: { shared: { driver: 'redis', url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' } } },
  }
  const apps = await Promise.all(['Shop', 'Blog'].map((name) => createApp({ root: tempApp(), env: { APP_ENV: 'test', APP_NAME: `${name} ${stamp}` }, config })))
  for (const app of apps) {
    t.teardown(() => app.close())
    app.router.post('/limited', () => ({ ok: true })).middleware(['throttle:2,1'])
  }
  const send = (app: (typeof apps)[number]) => app.request('/limited', { method: 'POST', headers: { accept: 'application/json' } }).then((res) => res.status)
  t.deepEqual([await send(apps[0]!), await send(apps[0]!), await send(apps[0]!)], [200, 200, 429])
  t.is(await send(apps[1]!), 200, "the other app's count is its own")
  const { Redis } = await import('ioredis')
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379')
  t.teardown(() => redis.quit())
  t.true((await redis.keys(`shop_${stamp}:shared:throttle*`)).length > 0, 'keys start with the app slug and the store name, as every Redis store of the app')
})
