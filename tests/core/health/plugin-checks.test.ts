import { fileURLToPath } from 'node:url'
import test from 'ava'
import { createTestApp } from '../../../core/testing/index.ts'
import { freePort, redisServer } from '../../fixtures/redis-server.ts'
import { rtApp } from '../../drivers/broadcast/websocket/rt-fixtures.ts'

const STARTER = fileURLToPath(new URL('../../../app-template/', import.meta.url))

test('the kv broadcaster and the shared token cache add their Redis to the readiness checks: a closed port is named', async (t) => {
  const closed = `redis://127.0.0.1:${await freePort()}`
  const app = await createTestApp({
    root: STARTER,
    env: { BROADCAST_CONNECTION: 'kv', REDIS_URL: closed, TOK_CACHE: 'true', TOK_CACHE_REDIS: closed },
    config: { logging: { level: 'silent' } },
  })
  t.teardown(() => app.close())
  const ready = await app.request('/up?ready')
  t.is(ready.status, 503)
  const body = (await ready.json()) as { message: string; checks: Record<string, string> }
  t.is(body.checks['broadcasting.kv'], 'down')
  t.is(body.checks['tok.cache'], 'down')
  t.regex(body.message, /^Not ready: .*tok\.cache.*broadcasting\.kv|^Not ready: .*broadcasting\.kv.*tok\.cache/)
})

test('rt with scaling adds its Redis: ok while it runs, down (named) once it is stopped', async (t) => {
  const port = await freePort()
  const redis = await redisServer(t, port)
  const rt = await rtApp(
    t,
    { scaling: { enabled: true, url: `redis://127.0.0.1:${port}`, prefix: 'health:', timeout_ms: 5000 } },
    { config: { http: { health: '/up' }, logging: { level: 'silent' } } },
  )
  const first = await fetch(`${rt.url}/up?ready`)
  t.is(first.status, 200, await first.clone().text())
  t.is(((await first.json()) as { checks: Record<string, string> }).checks['broadcasting.rt'], 'ok')
  await redis.stop()
  const down = await fetch(`${rt.url}/up?ready`)
  t.is(down.status, 503)
  t.deepEqual(((await down.json()) as { checks: Record<string, string> }).checks['broadcasting.rt'], 'down')
})
