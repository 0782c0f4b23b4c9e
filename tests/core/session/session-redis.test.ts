import { randomBytes } from 'node:crypto'
import test from 'ava'
import { createApp, generateAppKey, type Application } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { testSessionStore } from '../../contracts/session-store.contract.ts'
import { barrier, Browser, cookieHeader } from '../../fixtures/session-browser.ts'

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

testSessionStore('redis', { stores: { redis: { driver: 'redis', url, prefix: `kiln-test-${randomBytes(4).toString('hex')}` } } })

/** An app on a shared Redis prefix and APP_KEY: several of them are what several processes of one app are. */
async function redisApp(t: { teardown(fn: () => unknown): void }, key: string, prefix: string, session: Record<string, unknown> = {}): Promise<Application> {
  const app = await createApp({
    root: tempApp(),
    env: { APP_ENV: 'test', APP_KEY: key },
    config: { session: { driver: 'redis', stores: { redis: { driver: 'redis', url, prefix } }, ...session } },
  })
  t.teardown(() => app.close())
  return app
}

test('redis: two instances of one app (two processes, each with its own lock) keep every key of parallel requests', async (t) => {
  const key = generateAppKey()
  const prefix = `kiln-test-${randomBytes(4).toString('hex')}`
  const apps = [await redisApp(t, key, prefix), await redisApp(t, key, prefix)]
  const meet = barrier(20)
  for (const app of apps) {
    app.router.group({ middleware: ['web'] }, () => {
      app.router.get('/keys', ({ session }) => ({ keys: Object.keys(session!.all()).sort() }))
      app.router.post('/together/{key}', async ({ session, params }) => {
        session!.put(`key-${params.key}`, true)
        await meet()
        return { ok: true }
      })
    })
  }
  const browser = new Browser(apps[0]!)
  await browser.request('/keys')
  const cookie = cookieHeader(browser)
  const keys = Array.from({ length: 20 }, (_, i) => String(i).padStart(2, '0'))
  const statuses = await Promise.all(
    keys.map((k, i) =>
      apps[i % 2]!.request(`/together/${k}`, { method: 'POST', headers: { cookie, accept: 'application/json', 'x-xsrf-token': browser.xsrf() } }).then(
        (res) => res.status,
      ),
    ),
  )
  t.deepEqual(statuses, Array(20).fill(200))
  t.deepEqual(
    (await (await browser.request('/keys')).json()).keys,
    keys.map((k) => `key-${k}`),
  )
})

test('redis: a lifetime that is not a whole number of seconds is stored (rounded up) and expires', async (t) => {
  // 0.075 minutes is 4.5 s; Redis takes whole seconds only. Long enough that two requests on a loaded machine fit in it.
  const app = await redisApp(t, generateAppKey(), `kiln-test-${randomBytes(4).toString('hex')}`, { lifetime: 0.075 })
  app.router.group({ middleware: ['web'] }, () =>
    app.router.get('/count', ({ session }) => {
      const count = session!.get<number>('count', 0) + 1
      session!.put('count', count)
      return { count }
    }),
  )
  const browser = new Browser(app)
  const first = await browser.request('/count')
  t.is(first.status, 200)
  t.deepEqual(await first.json(), { count: 1 })
  t.deepEqual(await (await browser.request('/count')).json(), { count: 2 })
  await new Promise((resolve) => setTimeout(resolve, 5_500))
  t.deepEqual(await (await browser.request('/count')).json(), { count: 1 }, 'the session expired')
})
