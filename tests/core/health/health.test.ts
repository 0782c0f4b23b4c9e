import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { createApp, definePlugin, KilnError, type Application, type Plugin } from 'kiln-framework'
import { starterApp } from '../../fixtures/starter-app.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { freePort, redisServer } from '../../fixtures/redis-server.ts'

const PG_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const REDIS_URL = 'redis://127.0.0.1:6379'

/** A test app with the health route at `/up` (unless `http.health` says otherwise), its log in storage/logs/kiln.log. */
async function healthApp(
  t: { teardown(fn: () => unknown): void },
  config: Record<string, Record<string, unknown>> = {},
  options: { env?: Record<string, string>; plugins?: Plugin[]; files?: Record<string, string> } = {},
): Promise<{ app: Application; root: string }> {
  const root = tempApp(options.files)
  const app = await createApp({
    root,
    env: { APP_ENV: 'test', SESSION_DRIVER: 'memory', ...options.env },
    plugins: options.plugins,
    config: {
      ...config,
      http: { health: '/up', ...config.http },
      logging: { level: 'debug', channels: ['file'], file: { path: 'storage/logs/kiln.log' }, ...config.logging },
    },
  })
  t.teardown(() => app.close())
  return { app, root }
}

/** Probes `/up?ready` until it answers 200 (at most 100 tries, 100 ms apart) and returns the last status. */
async function readyWithin(app: Application): Promise<number> {
  let status = 0
  for (let attempt = 0; attempt < 100 && status !== 200; attempt++) {
    status = (await app.request('/up?ready')).status
    if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return status
}

function logLines(root: string): Array<{ level: number; msg: string; check?: string; res?: { statusCode: number }; req?: { url: string } }> {
  return readFileSync(join(root, 'storage/logs/kiln.log'), 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { level: number; msg: string })
}

test('GET /up answers 200 once the app has booted: JSON, no cookie, no database opened, HEAD too; other methods 405', async (t) => {
  const { app } = await healthApp(t, { database: { default: 'pgsql', connections: { pgsql: { driver: 'pgsql', url: 'postgres://127.0.0.1:1/none' } } } })
  const up = await app.request('/up')
  t.is(up.status, 200)
  t.deepEqual(await up.json(), { message: 'Up.' })
  t.regex(up.headers.get('content-type') ?? '', /application\/json/)
  t.is(up.headers.get('cache-control'), 'no-store')
  t.deepEqual(up.headers.getSetCookie(), [])
  t.is(app.service('db').connections.resolved().size, 0, 'the liveness answer never touches the database')
  const head = await app.request('/up', { method: 'HEAD' })
  t.is(head.status, 200)
  t.is(await head.text(), '')
  t.is((await app.request('/up', { method: 'POST' })).status, 405)
})

test('the health route is off unless http.health names a path; a bad path is refused at boot', async (t) => {
  const { app } = await healthApp(t, { http: { health: false } })
  t.is((await app.request('/up')).status, 404)
  const { app: other } = await healthApp(t, { http: { health: '/healthz' } })
  t.is((await other.request('/healthz')).status, 200)
  t.is((await other.request('/up')).status, 404)
  await t.throwsAsync(healthApp(t, { http: { health: 'up' } }), { message: /config\/http\.ts: health: .*expected a path such as "\/up"/ })
})

test('the health route is in no middleware group: no session or CSRF, and a throttle on web and api never reaches it', async (t) => {
  const throttled = definePlugin({
    name: 'throttled',
    boot(app) {
      app.middleware.appendToGroup('web', 'throttle:2,1')
      app.middleware.appendToGroup('api', 'throttle:2,1')
    },
  })
  const { app } = await healthApp(t, {}, { plugins: [throttled], files: { 'routes/web.ts': "export default (Route) => Route.get('/', () => 'home')\n" } })
  const statuses = []
  for (let i = 0; i < 5; i++) statuses.push((await app.request('/')).status)
  t.deepEqual(statuses, [200, 200, 429, 429, 429], 'the web group is throttled')
  for (let i = 0; i < 5; i++) {
    const up = await app.request('/up', { method: 'GET' })
    t.is(up.status, 200)
    t.deepEqual(up.headers.getSetCookie(), [], 'no session cookie, no XSRF-TOKEN')
  }
})

test('under APP_BASE_PATH the health route is <base>/up', async (t) => {
  const { app } = await healthApp(t, {}, { env: { APP_BASE_PATH: '/shop' } })
  t.is((await app.request('/shop/up')).status, 200)
  t.is((await app.request('/shop/up?ready')).status, 200)
})

test('a route of the app on the health path stops the boot, naming the path', async (t) => {
  const error = await t.throwsAsync(healthApp(t, {}, { files: { 'routes/web.ts': "export default (Route) => Route.get('/up', () => 'mine')\n" } }), {
    instanceOf: KilnError,
  })
  t.is(error.code, 'E_HEALTH_PATH')
  t.regex(error.message, /health route at \/up, and the app has its own GET \/up route/)
})

test('with the request log on, probes are logged at debug, not info; other requests keep their level', async (t) => {
  const { app, root } = await healthApp(t, { http: { request_log: true }, logging: { level: 'info' } })
  app.router.get('/other', () => 'x')
  for (let i = 0; i < 3; i++) t.is((await app.request('/up')).status, 200)
  t.is((await app.request('/up?ready')).status, 200)
  t.is((await app.request('/other')).status, 200)
  await app.close()
  const requests = logLines(root).filter((line) => line.msg === 'request completed')
  t.deepEqual(
    requests.map((line) => line.req!.url),
    ['/other'],
    'at level info, no probe is written',
  )
  const { app: verbose, root: verboseRoot } = await healthApp(t, { http: { request_log: true }, logging: { level: 'debug' } })
  await verbose.request('/up')
  await verbose.close()
  t.deepEqual(
    logLines(verboseRoot)
      .filter((line) => line.msg === 'request completed')
      .map((line) => [line.level, line.req!.url]),
    [[20, '/up']],
  )
})

test('readiness with PostgreSQL and Redis up: 200 and every check ok (database, session, a Redis store, the queue)', async (t) => {
  const { app } = await healthApp(t, {
    database: { default: 'pgsql', connections: { pgsql: { driver: 'pgsql', url: PG_URL } } },
    session: { driver: 'redis', stores: { redis: { driver: 'redis', url: REDIS_URL } } },
    storage: { stores: { local: { driver: 'fs', base: 'storage/app' }, cache: { driver: 'redis', url: REDIS_URL } } },
    queue: { default: 'redis', connections: { redis: { driver: 'redis', url: REDIS_URL, prefix: `kiln_health_${process.pid}` } } },
  })
  // A cold first probe loads kysely, pg and ioredis while the Redis checks' timers run: wait until ready, then read the answer.
  t.is(await readyWithin(app), 200)
  const ready = await app.request('/up?ready')
  t.is(ready.status, 200)
  t.deepEqual(await ready.json(), { message: 'Ready.', checks: { session: 'ok', 'storage.cache': 'ok', database: 'ok', queue: 'ok' } })
  t.is(ready.headers.get('cache-control'), 'no-store')
})

test('readiness with the session Redis at a closed port: a 503 naming it, with no address or password in the answer', async (t) => {
  const port = await freePort()
  const { app } = await healthApp(t, { session: { driver: 'redis', stores: { redis: { driver: 'redis', url: `redis://:hunter2@127.0.0.1:${port}` } } } })
  // The liveness answer does not care.
  t.is((await app.request('/up')).status, 200)
  const ready = await app.request('/up?ready')
  t.is(ready.status, 503)
  t.is(ready.headers.get('retry-after'), '5')
  const text = await ready.text()
  t.deepEqual(JSON.parse(text), { message: 'Not ready: session is down.', checks: { database: 'ok', session: 'down' } })
  t.false(text.includes('hunter2') || text.includes(String(port)), text)
})

test('readiness with PostgreSQL at a closed port: a 503 naming the database, no URL in the answer', async (t) => {
  const port = await freePort()
  const { app } = await healthApp(t, {
    database: { default: 'pgsql', connections: { pgsql: { driver: 'pgsql', url: `postgres://postgres:hunter2@127.0.0.1:${port}/test` } } },
  })
  const ready = await app.request('/up?ready')
  t.is(ready.status, 503)
  const text = await ready.text()
  t.deepEqual(JSON.parse(text), { message: 'Not ready: database is down.', checks: { database: 'down' } })
  t.false(text.includes('hunter2') || text.includes(String(port)), text)
})

test('every Redis the stores use is checked by name: a Redis store, the queue; several down are all named', async (t) => {
  const port = await freePort()
  const closed = `redis://127.0.0.1:${port}`
  const { app } = await healthApp(t, {
    storage: {
      stores: {
        local: { driver: 'fs', base: 'storage/app' },
        cache: { driver: 'redis', url: closed },
        shared: { driver: 'redis', url: REDIS_URL, timeout_ms: 5000 },
      },
    },
    queue: { default: 'redis', connections: { redis: { driver: 'redis', url: closed } } },
    http: { throttle_store: 'cache' },
  })
  const ready = await app.request('/up?ready')
  t.is(ready.status, 503)
  t.deepEqual(await ready.json(), {
    message: 'Not ready: storage.cache, queue are down.',
    checks: { 'storage.cache': 'down', 'storage.shared': 'ok', database: 'ok', queue: 'down' },
  })
})

test('a check going down is logged once across probes, and once when it is back; probes at debug', async (t) => {
  const port = await freePort()
  const redis = await redisServer(t, port)
  // A long timeout: this file's apps boot side by side in one process, and a first probe that times out would log an outage.
  const session = { driver: 'redis', stores: { redis: { driver: 'redis', url: `redis://127.0.0.1:${port}`, timeout_ms: 5000 } } }
  const { app, root } = await healthApp(t, { session, logging: { level: 'info' } })
  t.is(await readyWithin(app), 200)
  await redis.stop()
  for (let i = 0; i < 3; i++) t.is((await app.request('/up?ready')).status, 503)
  await redis.start()
  // The check's client reconnects by itself (at most a second apart): wait for the condition, not a time.
  t.is(await readyWithin(app), 200)
  await app.close()
  const lines = logLines(root).filter((line) => line.check === 'session')
  t.deepEqual(
    lines.map((line) => [line.level, line.msg]),
    [
      [40, 'Readiness check is down'],
      [30, 'Readiness check is up again'],
    ],
  )
})

test('a Redis that hangs (connection open, no answers) is down within its timeout: the probe answers', async (t) => {
  const port = await freePort()
  const redis = await redisServer(t, port)
  const { app } = await healthApp(t, {
    session: { driver: 'redis', stores: { redis: { driver: 'redis', url: `redis://127.0.0.1:${port}`, timeout_ms: 300 } } },
  })
  // The first probe loads the database driver and ioredis, which can hold the event loop longer than 300 ms: until ready.
  t.is(await readyWithin(app), 200)
  redis.pause()
  t.teardown(() => redis.resume())
  const ready = await app.request('/up?ready')
  t.is(ready.status, 503)
  t.is(((await ready.json()) as { checks: Record<string, string> }).checks.session, 'down')
})

test('plugins add checks to the registry: a failing one is named, a throwing name is refused, and the kernel never needs to know them', async (t) => {
  let reportsUp = true
  const reports = definePlugin({
    name: 'reports',
    register(app) {
      app.service('health').register('reports', () => {
        if (!reportsUp) throw new Error('reports service refused')
      })
      app.service('health').redis('reports.cache', REDIS_URL)
    },
  })
  const { app } = await healthApp(t, {}, { plugins: [reports] })
  t.deepEqual(app.service('health').names(), ['database', 'reports', 'reports.cache'])
  t.is(await readyWithin(app), 200)
  reportsUp = false
  const ready = await app.request('/up?ready')
  t.is(ready.status, 503)
  t.deepEqual(await ready.json(), { message: 'Not ready: reports is down.', checks: { database: 'ok', reports: 'down', 'reports.cache': 'ok' } })
  for (const name of ['__proto__', 'has space', '', 'constructor'])
    t.throws(() => app.service('health').register(name, () => {}), { instanceOf: KilnError, message: /not a valid health check name/ })
})

test('probes that arrive together share one run of the checks', async (t) => {
  let runs = 0
  const counted = definePlugin({
    name: 'counted',
    register(app) {
      app.service('health').register('counted', () => new Promise((resolve) => setTimeout(() => resolve(++runs), 20)))
    },
  })
  const { app } = await healthApp(t, {}, { plugins: [counted] })
  const answers = await Promise.all(Array.from({ length: 10 }, () => app.request('/up?ready')))
  t.true(answers.every((answer) => answer.status === 200))
  t.is(runs, 1)
})

test('over a real server: /up and /up?ready, under APP_BASE_PATH, with a closed Redis named', async (t) => {
  const port = await freePort()
  const { app } = await healthApp(
    t,
    {
      database: { default: 'pgsql', connections: { pgsql: { driver: 'pgsql', url: PG_URL } } },
      session: { driver: 'redis', stores: { redis: { driver: 'redis', url: `redis://127.0.0.1:${port}` } } },
    },
    { env: { APP_BASE_PATH: '/shop' } },
  )
  const server = await app.listen({ port: 0 })
  const up = await fetch(`${server.url}/shop/up`)
  t.is(up.status, 200)
  t.deepEqual(await up.json(), { message: 'Up.' })
  const ready = await fetch(`${server.url}/shop/up?ready`)
  t.is(ready.status, 503)
  t.deepEqual(await ready.json(), { message: 'Not ready: session is down.', checks: { session: 'down', database: 'ok' } })
})

test('the starter turns it on: /up and /up?ready answer on the starter app (SQLite), and route:list shows it under Health', async (t) => {
  const app = await starterApp(t, 'sqlite')
  t.is(app.config.get('http.health'), '/up')
  t.is((await app.request('/up')).status, 200)
  t.is(await readyWithin(app), 200)
  const route = app.router.routes().find((r) => r.path === '/up')
  t.is(route?.section, 'Health')
  t.deepEqual(route?.allMiddleware(), [])
})

test('the starter on its embedded defaults (SQLite, no Redis) is ready with no Redis anywhere: it checks only what it uses', async (t) => {
  const app = await starterApp(t, 'sqlite', { REDIS_URL: `redis://127.0.0.1:${await freePort()}` })
  const ready = await app.request('/up?ready')
  t.is(ready.status, 200, await ready.clone().text())
  t.deepEqual(((await ready.json()) as { checks: Record<string, string> }).checks, { database: 'ok' })
})

test('fuzz: query strings, methods and headers around the health path never give a 5xx', async (t) => {
  let seed = 35
  const random = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32
  const pieces = ['ready', 'ready=', 'ready=0', '&', '=', '%', '%zz', '__proto__', 'constructor', '?', '#', '/', '..', 'é', '😀', ';', '[]', 'a']
  const { app } = await healthApp(t)
  for (let i = 0; i < 300; i++) {
    const query = Array.from({ length: Math.floor(random() * 6) }, () => pieces[Math.floor(random() * pieces.length)]!).join('')
    const path = ['/up', '/up/', '/UP', '//up', '/up/ready', '/up%3Fready'][Math.floor(random() * 6)]!
    const method = ['GET', 'HEAD', 'POST', 'OPTIONS', 'DELETE'][Math.floor(random() * 5)]!
    const response = await app.request(`http://localhost${path}?${encodeURI(query)}`, {
      method,
      headers: { accept: ['application/json', 'text/html', '*/*'][Math.floor(random() * 3)]!, 'content-type': 'application/json' },
      ...(method === 'POST' ? { body: query } : {}),
    })
    t.true(response.status < 500, `${method} ${path}?${query}: ${response.status}`)
  }
})
