import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { createApp } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { freePort, redisServer } from '../../fixtures/redis-server.ts'

/** An app whose sessions live in the Redis on `port`, logging to `storage/logs/<name>.log`, with a web route counting visits. */
async function countingApp(t: { teardown(fn: () => unknown): void }, port: number, name: string) {
  const root = tempApp()
  const app = await createApp({
    root,
    env: { APP_ENV: 'test' },
    config: {
      session: { driver: 'redis', redis_timeout_ms: 300, stores: { redis: { driver: 'redis', url: `redis://127.0.0.1:${port}`, prefix: name } } },
      logging: { level: 'info', channels: ['file'], file: { path: `storage/logs/${name}.log` } },
    },
  })
  t.teardown(() => app.close())
  app.router.group({ middleware: ['web'] }, () =>
    app.router.get('/count', ({ session }) => {
      const count = session!.get<number>('count', 0) + 1
      session!.put('count', count)
      return { count }
    }),
  )
  return { root, app }
}

test('Redis sessions while Redis is down: a fast 503 JSON, one warning for the outage, and service again once Redis is back', async (t) => {
  // ioredis prints each error event nobody listens to on stderr: watch for those traces.
  const printed: string[] = []
  const consoleError = console.error
  console.error = (...args: unknown[]) => {
    printed.push(args.map(String).join(' '))
    consoleError(...args)
  }
  t.teardown(() => {
    console.error = consoleError
  })
  const port = await freePort()
  const redis = await redisServer(t, port)
  const { root, app } = await countingApp(t, port, 'outage')
  const server = await app.listen({ port: 0 })
  const get = (cookie = '') => fetch(`${server.url}/count`, { headers: { accept: 'application/json', cookie } })

  const first = await get()
  t.deepEqual(await first.json(), { count: 1 })
  const cookie = first.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ')

  await redis.stop()
  const statuses: number[] = []
  for (let i = 0; i < 5; i++) {
    const started = Date.now()
    const res = await get(cookie)
    statuses.push(res.status)
    // A hang check, not a speed test: the old client waited 10 s and more.
    t.true(Date.now() - started < 3000, `request ${i} took ${Date.now() - started} ms`)
    t.deepEqual(await res.json(), { message: 'The session store is unavailable; try again shortly.' })
  }
  t.deepEqual(statuses, [503, 503, 503, 503, 503])

  await redis.start()
  let recovered: Response | undefined
  for (let attempt = 0; attempt < 50 && recovered?.status !== 200; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    recovered = await get(cookie)
  }
  t.is(recovered?.status, 200)
  t.is((await recovered!.json()).count, 1, 'Redis kept nothing (no persistence): a fresh session, served normally')

  await app.close()
  const lines = readFileSync(join(root, 'storage/logs/outage.log'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { level: number; msg: string; redis?: string })
  const warnings = lines.filter((line) => line.level === 40)
  t.is(warnings.length, 1, JSON.stringify(warnings))
  t.regex(warnings[0]!.msg, /Redis is unreachable/)
  t.is(warnings[0]!.redis, `redis://127.0.0.1:${port}`)
  t.true(lines.some((line) => /Redis is reachable again/.test(line.msg)))
  t.deepEqual(
    printed.filter((line) => line.includes('ioredis')),
    [],
    'no unhandled ioredis error events',
  )
})

test('Redis sessions while Redis hangs (connections open, no answers): 503 JSON within the timeout, one warning per hang, then service again', async (t) => {
  const port = await freePort()
  const redis = await redisServer(t, port)
  const { root, app } = await countingApp(t, port, 'hung')
  const first = await app.request('/count', { headers: { accept: 'application/json' } })
  t.deepEqual(await first.json(), { count: 1 })
  const cookie = first.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ')

  redis.pause()
  const started = Date.now()
  const res = await app.request('/count', { headers: { accept: 'application/json', cookie } })
  // A hang check, not a speed test.
  t.true(Date.now() - started < 3000, `took ${Date.now() - started} ms`)
  t.is(res.status, 503)
  t.deepEqual(await res.json(), { message: 'The session store is unavailable; try again shortly.' })

  redis.resume()
  let recovered: Response | undefined
  for (let attempt = 0; attempt < 50 && recovered?.status !== 200; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    recovered = await app.request('/count', { headers: { accept: 'application/json', cookie } })
  }
  t.is(recovered?.status, 200)
  t.is((await recovered!.json()).count, 2, 'the session kept in Redis is served again')

  // A second hang is a second outage: the first one must have been seen to end.
  redis.pause()
  t.is((await app.request('/count', { headers: { accept: 'application/json', cookie } })).status, 503)
  t.is((await app.request('/count', { headers: { accept: 'application/json', cookie } })).status, 503)
  redis.resume()
  recovered = undefined
  for (let attempt = 0; attempt < 50 && recovered?.status !== 200; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    recovered = await app.request('/count', { headers: { accept: 'application/json', cookie } })
  }
  t.is(recovered?.status, 200)

  await app.close()
  const lines = readFileSync(join(root, 'storage/logs/hung.log'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { level: number; msg: string })
  const outages = lines.filter((line) => /Redis is unreachable/.test(line.msg)).length
  const recoveries = lines.filter((line) => /Redis is reachable again/.test(line.msg)).length
  t.deepEqual({ outages, recoveries }, { outages: 2, recoveries: 2 }, JSON.stringify(lines.map((line) => line.msg)))
})
