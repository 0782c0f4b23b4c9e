import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { z } from 'zod'
import { createApp, HttpException } from 'kiln-framework'
import { tempApp } from '../../fixtures/temp-app.ts'

test('the request log has one pino-http style entry per request: id, method, url, status, response time; 4xx warn, 5xx error; no headers', async (t) => {
  const root = tempApp()
  const app = await createApp({
    root,
    env: { APP_ENV: 'test' },
    config: { http: { request_log: true }, logging: { level: 'info', channels: ['file'], file: { path: 'storage/logs/requests.log' } } },
  })
  t.teardown(() => app.close())
  app.router.get('/ok', () => ({ ok: true }))
  app.router.get('/gone', () => {
    throw new HttpException(410, 'Gone.')
  })
  app.router.post('/check', ({ request }) => request.validate(z.object({ name: z.string() })))
  app.router.get('/boom', () => {
    throw new Error('boom')
  })
  const headers = { cookie: 'kiln_session=secret-cookie', authorization: 'Bearer 1|secret-token' }
  t.is((await app.request('/ok?x=1', { headers })).status, 200)
  t.is((await app.request('/gone', { headers })).status, 410)
  t.is((await app.request('/check', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' })).status, 422)
  t.is((await app.request('/boom', { headers: { ...headers, accept: 'application/json' } })).status, 500)
  t.is((await app.request('/nowhere', { headers })).status, 404)
  await app.close()

  const text = readFileSync(join(root, 'storage/logs/requests.log'), 'utf8')
  t.false(text.includes('secret-cookie') || text.includes('secret-token'), 'no header reaches the log')
  const entries = text
    .trim()
    .split('\n')
    .map(
      (line) =>
        JSON.parse(line) as {
          level: number
          msg: string
          req?: { id: number; method: string; url: string }
          res?: { statusCode: number }
          responseTime?: number
        },
    )
    .filter((e) => e.msg === 'request completed')
  t.deepEqual(
    entries.map((e) => [e.level, e.req!.method, e.req!.url, e.res!.statusCode]),
    [
      [30, 'GET', '/ok', 200],
      [40, 'GET', '/gone', 410],
      [40, 'POST', '/check', 422],
      [50, 'GET', '/boom', 500],
      [40, 'GET', '/nowhere', 404],
    ],
  )
  t.true(entries.every((e) => typeof e.responseTime === 'number' && e.responseTime >= 0))
  t.is(new Set(entries.map((e) => e.req!.id)).size, 5, 'each request has its own id')
})
