import test from 'ava'
import { createApp } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

async function makeApp(t: { teardown(fn: () => unknown): void }, cors: Record<string, unknown>) {
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' }, config: { cors } })
  t.teardown(() => app.close())
  app.router.post('/api/orders', () => ({ ok: true }))
  app.router.get('/private', () => ({ ok: true }))
  return app
}

test('preflight for a POST-only route answers 204 with the allowed origin and credentials', async (t) => {
  const app = await makeApp(t, { allowed_origins: ['https://spa.example.com'], supports_credentials: true, max_age: 600 })
  const res = await app.request('/api/orders', {
    method: 'OPTIONS',
    headers: { origin: 'https://spa.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-xsrf-token, content-type' },
  })
  t.is(res.status, 204)
  t.is(res.headers.get('access-control-allow-origin'), 'https://spa.example.com')
  t.is(res.headers.get('access-control-allow-credentials'), 'true')
  t.is(res.headers.get('access-control-allow-headers'), 'x-xsrf-token, content-type')
  t.is(res.headers.get('access-control-max-age'), '600')
})

test('actual requests get the origin echoed (never * with credentials) and Vary: Origin', async (t) => {
  const app = await makeApp(t, { allowed_origins: ['*'], supports_credentials: true })
  const res = await app.request('/api/orders', { method: 'POST', headers: { origin: 'https://a.test' } })
  t.is(res.headers.get('access-control-allow-origin'), 'https://a.test')
  t.regex(res.headers.get('vary') ?? '', /origin/i)
  const open = await makeApp(t, { allowed_origins: ['*'] })
  t.is((await open.request('/api/orders', { method: 'POST', headers: { origin: 'https://a.test' } })).headers.get('access-control-allow-origin'), '*')
})

test('wildcard origins match subdomains only; other origins and other paths get no CORS headers', async (t) => {
  const app = await makeApp(t, { allowed_origins: ['https://*.example.com'], supports_credentials: true })
  const origin = async (o: string, path = '/api/orders') =>
    (await app.request(path, { method: 'POST', headers: { origin: o } })).headers.get('access-control-allow-origin')
  t.is(await origin('https://app.example.com'), 'https://app.example.com')
  t.is(await origin('https://a.b.example.com'), 'https://a.b.example.com')
  t.is(await origin('https://example.com'), null)
  t.is(await origin('https://app.example.com.evil.test'), null)
  t.is(await origin('http://app.example.com'), null)
  t.is((await app.request('/private', { headers: { origin: 'https://app.example.com' } })).headers.get('access-control-allow-origin'), null)
})

test('a preflight from a refused origin gets its 204 and nothing of the policy; listed methods and headers are sent as configured', async (t) => {
  const app = await makeApp(t, {
    allowed_origins: ['https://spa.example.com'],
    allowed_methods: ['GET', 'POST'],
    allowed_headers: ['content-type'],
    exposed_headers: ['x-total'],
  })
  const preflight = (origin: string) =>
    app.request('/api/orders', {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    })
  const refused = await preflight('https://evil.test')
  t.is(refused.status, 204)
  t.deepEqual(
    [...refused.headers.keys()].filter((name) => name.startsWith('access-control-')),
    [],
  )
  const allowed = await preflight('https://spa.example.com')
  t.is(allowed.headers.get('access-control-allow-methods')?.replace(/\s/g, ''), 'GET,POST')
  t.is(allowed.headers.get('access-control-allow-headers'), 'content-type')
  t.is(allowed.headers.get('access-control-max-age'), null)
  const actual = await app.request('/api/orders', { method: 'POST', headers: { origin: 'https://spa.example.com' } })
  t.is(actual.headers.get('access-control-expose-headers'), 'x-total')
  t.is(actual.headers.get('access-control-allow-credentials'), null)
})

test('an actual request from a refused origin gets no CORS headers at all, credentials included', async (t) => {
  const app = await makeApp(t, { allowed_origins: ['https://spa.example.com'], supports_credentials: true, exposed_headers: ['x-total'], max_age: 600 })
  const refused = await app.request('/api/orders', { method: 'POST', headers: { origin: 'https://evil.test' } })
  t.is(refused.status, 200)
  t.deepEqual(
    [...refused.headers.keys()].filter((name) => name.startsWith('access-control-')),
    [],
  )
  t.regex(refused.headers.get('vary') ?? '', /origin/i, 'the answer still varies by origin, for caches')
  const allowed = await app.request('/api/orders', { method: 'POST', headers: { origin: 'https://spa.example.com' } })
  t.is(allowed.headers.get('access-control-allow-credentials'), 'true')
})
