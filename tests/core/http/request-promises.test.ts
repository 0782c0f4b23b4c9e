import test from 'ava'
import { createApp, defineMiddleware, middlewareNow, type Application } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { promisesOf } from '../../fixtures/count-promises.ts'

// On Node 20 every promise a request makes runs AsyncLocalStorage's hooks (the request scope), so the number of
// promises is the web stack's cost that the machine's load cannot blur. Counted, not timed: the figures below are
// what a request makes today (issue 25); a change that adds promises to every request fails here.

async function makeApp(t: { teardown(fn: () => unknown): void }, driver = 'memory'): Promise<Application> {
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' }, config: { session: { driver, lottery: [0, 100] } } })
  t.teardown(() => app.close())
  const payload = { id: 1, name: 'Test User' }
  app.router.group({ middleware: ['api'] }, () => app.router.get('/api-json', () => payload))
  app.router.group({ middleware: ['web'] }, () => app.router.get('/web-json', () => payload))
  return app
}

test.serial('a JSON route in the api group makes no promise, as bare h3 makes none, counted from the server’s handler (was 11, then 5)', async (t) => {
  const app = await makeApp(t)
  const { count, response } = await promisesOf(app, '/api-json')
  t.is(response.status, 200)
  t.is(count, 0, `${count} promises`)
})

test.serial(
  'a web route for a returning browser (session and XSRF cookies sent back) makes no promise, and sets no cookie (was 48, then 15): the memory store knows a missing session at once',
  async (t) => {
    const app = await makeApp(t)
    const first = await app.request('/web-json')
    const cookie = first.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ')
    t.true(cookie.includes('XSRF-TOKEN='))
    const { count, response } = await promisesOf(app, '/web-json', { cookie })
    t.is(response.status, 200)
    t.deepEqual(response.headers.getSetCookie(), [])
    t.is(count, 0, `${count} promises`)
  },
)

test.serial(
  'on the default fs store, a returning browser whose session holds nothing makes no promise: the missing file is known without unstorage, and the kernel’s middleware wait on nothing (was 15, then 8)',
  async (t) => {
    const app = await makeApp(t, 'fs')
    const first = await app.request('/web-json')
    const cookie = first.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ')
    const { count, response } = await promisesOf(app, '/web-json', { cookie })
    t.is(response.status, 200)
    t.deepEqual(response.headers.getSetCookie(), [])
    t.is(count, 0, `${count} promises`)
  },
)

test.serial('a web route for a new visitor (no cookie) makes no promise and gets its session and XSRF cookies (was 41, then 8)', async (t) => {
  const app = await makeApp(t)
  const { count, response } = await promisesOf(app, '/web-json')
  t.is(response.status, 200)
  const names = response.headers.getSetCookie().map((line) => line.split('=')[0])
  t.true(names.includes('XSRF-TOKEN'))
  t.is(names.length, 2)
  t.is(count, 0, `${count} promises`)
})

test.serial(
  'an app middleware made with middlewareNow keeps a route without a promise and its header is sent; one made with defineMiddleware still works, at the cost of its promises',
  async (t) => {
    const app = await makeApp(t)
    const poweredBy = middlewareNow((ctx, next) => {
      ctx.response.headers.set('x-powered-by', 'kiln')
      return next()
    })
    const timing = defineMiddleware(async (_ctx, next) => {
      const response = await next()
      response.headers.set('x-timed', '1')
      return response
    })
    app.router.group({ middleware: ['api', poweredBy] }, () => app.router.get('/now-json', () => ({ ok: true })))
    app.router.group({ middleware: ['api', timing] }, () => app.router.get('/timed-json', () => ({ ok: true })))
    const now = await promisesOf(app, '/now-json')
    t.is(now.count, 0, `${now.count} promises`)
    t.is(now.response.headers.get('x-powered-by'), 'kiln')
    t.deepEqual(await now.response.json(), { ok: true })
    const timed = await promisesOf(app, '/timed-json')
    t.true(timed.count > 0)
    t.is(timed.response.headers.get('x-timed'), '1')
  },
)

test.serial(
  'with trusted proxies configured, a web route that reads the forwarded client (ip, secure, url) and sets its cookies makes no promise either',
  async (t) => {
    const app = await createApp({
      root: tempApp(),
      env: { APP_ENV: 'test' },
      config: { session: { driver: 'memory', lottery: [0, 100] }, http: { trusted_proxies: ['loopback', '10.0.0.0/8'] } },
    })
    t.teardown(() => app.close())
    app.router.group({ middleware: ['web'] }, () =>
      app.router.get('/who', ({ request }) => ({ ip: request.ip() ?? null, secure: request.secure(), origin: request.url.origin })),
    )
    const { count, response } = await promisesOf(app, '/who', { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' }, '127.0.0.1')
    t.is(response.status, 200)
    t.deepEqual(await response.clone().json(), { ip: '203.0.113.7', secure: true, origin: 'https://localhost' })
    t.true(response.headers.getSetCookie().every((line) => /; Secure/i.test(line)))
    t.is(response.headers.getSetCookie().length, 2)
    t.is(count, 0, `${count} promises`)
  },
)
