import { fileURLToPath } from 'node:url'
import test from 'ava'
import { createTestApp, TestClient } from '../../core/testing/index.ts'

const root = fileURLToPath(new URL('../../app-template/', import.meta.url))

test('the starter app serves its home page through the layout, and its API health route', async (t) => {
  const app = await createTestApp({ root })
  t.teardown(() => app.close())
  const client = new TestClient(app)
  const home = await client.get('/', { accept: 'text/html' })
  t.is(home.status, 200)
  const html = await home.text()
  t.regex(html, /<h1>Kiln is running<\/h1>/)
  t.regex(html, /<meta name="csrf-token" content="[A-Za-z0-9_-]{107}">/, 'the token masked for this page (BREACH)')
  t.true(home.cookies.has('kiln_session'))
  const health = await client.json('GET', '/health')
  t.deepEqual(await health.json(), { status: 'ok' })
  t.false(health.cookies.has('kiln_session'), 'api routes are stateless')
})
