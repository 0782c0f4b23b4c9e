import { fileURLToPath } from 'node:url'
import test from 'ava'
import { createApp, runWithApp, type HttpContext } from '../../../core/index.ts'
import { createTestApp, refreshDatabase, TestClient } from '../../../core/testing/index.ts'
import { currentRequestHost, fromFrontend, tok } from '../../../plugins/tok/index.ts'
import seed from '../../../app-template/database/seeders/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

const root = fileURLToPath(new URL('../../../app-template/', import.meta.url))

function ctxWith(headers: Record<string, string>): HttpContext {
  return { request: { header: (name: string) => headers[name.toLowerCase()], host: () => headers.host ?? '' } } as unknown as HttpContext
}

test('stateful domain matching follows Sanctum: scheme stripped, wildcards, exact port, no suffix tricks', (t) => {
  const stateful = ['test.com', '*.example.com', 'localhost:3000', currentRequestHost()]
  const table: Array<[Record<string, string>, boolean]> = [
    [{ referer: 'https://test.com' }, true],
    [{ referer: 'http://test.com/some/page' }, true],
    [{ referer: 'https://test.com.x' }, false],
    [{ referer: 'https://wrong.test.com' }, false],
    [{ referer: 'https://app.example.com/dashboard' }, true],
    [{ referer: 'https://example.com' }, false],
    [{ referer: 'http://localhost:3000/' }, true],
    [{ referer: 'http://localhost:3001/' }, false],
    [{ referer: 'http://localhost/' }, false],
    [{ origin: 'https://test.com' }, true],
    [{ origin: 'https://evil.com', referer: 'https://test.com' }, true],
    [{ referer: 'https://evil.com', origin: 'https://test.com' }, false],
    [{ referer: 'http://api.shop.test:8080/', host: 'api.shop.test:8080' }, true],
    [{}, false],
  ]
  for (const [headers, expected] of table) t.is(fromFrontend(ctxWith(headers), stateful), expected, JSON.stringify(headers))
})

test('defaults: localhost, localhost:3000, 127.0.0.1, 127.0.0.1:8000, ::1 and the host and port of APP_URL', async (t) => {
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test', APP_URL: 'https://shop.test:8443' }, plugins: [tok()] })
  t.teardown(() => app.close())
  t.deepEqual(app.config.get('tok.stateful'), ['localhost', 'localhost:3000', '127.0.0.1', '127.0.0.1:8000', '::1', 'shop.test:8443'])
})

test('the SPA flow: csrf-cookie, login, /user with cookies; 419 without the header; requests without Referer stay stateless', async (t) => {
  const app = await createTestApp({ root })
  t.teardown(() => app.close())
  await refreshDatabase(app)
  await runWithApp(app, () => seed())
  const spa = new TestClient(app).withHeaders({ referer: 'http://localhost:3000/', accept: 'application/json' })
  const cookie = await spa.get('/tok/csrf-cookie')
  t.is(cookie.status, 204)
  t.truthy(spa.cookie('XSRF-TOKEN'))
  t.is((await spa.json('POST', '/login', { email: 'test@example.com', password: 'password' })).status, 200)
  const me = await spa.get('/user')
  t.is(me.status, 200)
  t.is((await me.json()).email, 'test@example.com')
  t.is((await spa.withoutCsrf().json('POST', '/tok/token', { email: 'test@example.com', password: 'password', device_name: 'x' })).status, 419)
  const noReferer = new TestClient(app).withHeaders({ accept: 'application/json' })
  for (const [name, c] of spa.cookies) noReferer.cookies.set(name, c)
  t.is((await noReferer.get('/user')).status, 401, 'cookies alone do not authenticate a request that is not from a stateful domain')
  const stranger = new TestClient(app).withHeaders({ referer: 'https://evil.example/', accept: 'application/json' })
  for (const [name, c] of spa.cookies) stranger.cookies.set(name, c)
  t.is((await stranger.get('/user')).status, 401)
})

test('CORS with credentials for a configured SPA origin: preflight and the cookie-authenticated call', async (t) => {
  const app = await createTestApp({ root, config: { cors: { allowed_origins: ['http://localhost:3000'], supports_credentials: true } } })
  t.teardown(() => app.close())
  await refreshDatabase(app)
  await runWithApp(app, () => seed())
  const preflight = await app.request('/user', {
    method: 'OPTIONS',
    headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-xsrf-token' },
  })
  t.is(preflight.status, 204)
  t.is(preflight.headers.get('access-control-allow-origin'), 'http://localhost:3000')
  t.is(preflight.headers.get('access-control-allow-credentials'), 'true')
  const spa = new TestClient(app).withHeaders({ origin: 'http://localhost:3000', accept: 'application/json' })
  await spa.get('/tok/csrf-cookie')
  await spa.json('POST', '/login', { email: 'test@example.com', password: 'password' })
  const me = await spa.get('/user')
  t.is(me.status, 200)
  t.is(me.header('access-control-allow-origin'), 'http://localhost:3000')
  t.is(me.header('access-control-allow-credentials'), 'true')
})
