import test from 'ava'
import WebSocket from 'ws'
import { createTestApp, startServer, TestClient } from '../../../core/testing/index.ts'

async function makeApp(t: { teardown(fn: () => unknown): void }) {
  const app = await createTestApp()
  t.teardown(() => app.close())
  app.router.group({ middleware: ['web'] }, () => {
    app.router.get('/page', () => 'page')
    app.router.post('/save', ({ request }) => ({ saved: request.input('v') }))
    app.router.get('/me', ({ request }) => request.user()).middleware(['auth'])
    app.router.post('/forget', ({ cookies }) => {
      cookies.delete('remember', { encrypt: false })
      return { ok: true }
    })
    app.router.get('/remember', ({ cookies }) => {
      cookies.set('remember', 'yes')
      return { ok: true }
    })
  })
  app.router.websocket('/ws', {
    open(peer) {
      peer.send('hello')
    },
  })
  return app
}

test('the client keeps cookies and echoes XSRF-TOKEN on unsafe methods, like a browser SPA', async (t) => {
  const client = new TestClient(await makeApp(t))
  const first = await client.post('/save', { v: 1 })
  t.is(first.status, 419, 'no token yet: refused')
  t.truthy(client.cookie('XSRF-TOKEN'), 'but the refusal set the cookie')
  const second = await client.post('/save', { v: 2 })
  t.is(second.status, 200)
  t.deepEqual(await second.json(), { saved: 2 })
  const blocked = await new TestClient(client.app).withoutCsrf().post('/save', { v: 3 })
  t.is(blocked.status, 419)
})

test('cookies deleted by the server are forgotten', async (t) => {
  const client = new TestClient(await makeApp(t))
  await client.get('/remember')
  t.true(client.cookies.has('remember'))
  await client.post('/forget')
  t.false(client.cookies.has('remember'))
})

test('actingAs authenticates on the session guard; without it the route is 401', async (t) => {
  const client = new TestClient(await makeApp(t))
  const anonymous = await client.json('GET', '/me')
  t.is(anonymous.status, 401)
  t.deepEqual(await anonymous.json(), { message: 'Unauthenticated.' })
  const me = await client.actingAs({ getKey: () => 7, name: 'Ada' } as never).json('GET', '/me')
  t.deepEqual(await me.json(), { name: 'Ada' })
})

test('startServer gives a real listening server with websockets', async (t) => {
  const app = await makeApp(t)
  const server = await startServer(app)
  t.teardown(() => server.close())
  t.is(await (await fetch(`${server.url}/page`)).text(), 'page')
  const message = await new Promise<string>((resolve, reject) => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws`)
    ws.on('message', (m) => {
      resolve(String(m))
      ws.close()
    })
    ws.on('error', reject)
  })
  t.is(message, 'hello')
})
