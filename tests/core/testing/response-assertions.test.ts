import { AssertionError } from 'node:assert'
import test from 'ava'
import { TestClient, createTestApp } from '../../../core/testing/index.ts'
import type { Application } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

// Issue 27 item 7: response assertions on the test client, each failure an AssertionError showing the response.

async function client(t: { teardown(fn: () => unknown): void }): Promise<{ app: Application; client: TestClient }> {
  const routes = `import { defineRoutes } from 'kiln-framework'
import { redirect } from 'kiln-framework'
export default defineRoutes((Route) => {
  Route.get('/json', () => ({ user: { name: 'Ada', roles: ['admin', 'dev'] }, count: 2 }))
  Route.get('/page', () => new Response('<h1>Tom &amp; Jerry</h1>', { headers: { 'content-type': 'text/html' } }))
  Route.get('/go', () => redirect('/login?next=%2Fgo'))
  Route.post('/remember', ({ session }) => { session.put('cart', { items: 3 }); session.flash('status', 'Saved.'); return { ok: true } })
  Route.get('/cookie', ({ cookies }) => { cookies.set('theme', 'dark'); return 'ok' })
})
`
  const app = await createTestApp({ root: tempApp({ 'routes/web.ts': routes }) })
  t.teardown(() => app.close())
  return { app, client: new TestClient(app) }
}

test('assertStatus, assertOk, assertJson (a subset), assertJsonPath and assertHeader pass on a matching response', async (t) => {
  const { client: c } = await client(t)
  const res = await c.get('/json')
  await res.assertOk()
  await (await res.assertStatus(200)).assertHeader('content-type', 'application/json')
  await res.assertJson({ user: { name: 'Ada' } })
  await res.assertJson({ user: { roles: ['admin'] } })
  await res.assertJsonPath('user.roles.1', 'dev')
  await res.assertJsonPath('count', 2)
  t.pass()
})

test('a failed assertion is an AssertionError that shows the status and the body', async (t) => {
  const { client: c } = await client(t)
  const res = await c.get('/json')
  const status = await t.throwsAsync(res.assertStatus(201), { instanceOf: AssertionError })
  t.regex(status!.message, /Expected status 201, got 200\.\n\nResponse: 200\ncontent-type: application\/json/)
  t.regex(status!.message, /"name":"Ada"/)
  const json = await t.throwsAsync(res.assertJson({ user: { name: 'Bob' } }), { instanceOf: AssertionError })
  t.regex(json!.message, /Expected the JSON body to contain \{"user":\{"name":"Bob"\}\}/)
  await t.throwsAsync(res.assertJsonPath('user.roles.0', 'dev'), {
    instanceOf: AssertionError,
    message: /Expected JSON at "user\.roles\.0" to be "dev", got "admin"/,
  })
  await t.throwsAsync(res.assertHeader('x-nope'), { instanceOf: AssertionError })
  await t.throwsAsync((await c.get('/missing')).assertOk(), { instanceOf: AssertionError, message: /got 404/ })
})

test('assertSee escapes as views do; assertDontSee', async (t) => {
  const { client: c } = await client(t)
  const res = await c.get('/page')
  await res.assertSee('Tom & Jerry')
  await res.assertDontSee('Spike')
  await t.throwsAsync(res.assertSee('Spike'), { instanceOf: AssertionError, message: /Expected to see "Spike" in the body\.[\s\S]*<h1>Tom/ })
  await t.throwsAsync(res.assertDontSee('Jerry'), { instanceOf: AssertionError })
})

test('assertRedirect with and without a target', async (t) => {
  const { client: c } = await client(t)
  const res = await c.get('/go')
  await res.assertRedirect()
  await res.assertRedirect('/login')
  await res.assertRedirect('/login?next=%2Fgo')
  await t.throwsAsync(res.assertRedirect('/home'), { instanceOf: AssertionError, message: /Expected a redirect to \/home, got one to/ })
  await t.throwsAsync((await c.get('/json')).assertRedirect(), { instanceOf: AssertionError, message: /Expected a redirect, got status 200/ })
})

test('assertCookie and assertSessionHas read what the request stored', async (t) => {
  const { client: c } = await client(t)
  await (await c.get('/cookie')).assertCookie('theme')
  await c.get('/json')
  const res = await c.post('/remember')
  await res.assertOk()
  await res.assertSessionHas('cart', { items: 3 })
  await res.assertSessionHas('status', 'Saved.')
  await res.assertSessionMissing('nothing')
  await t.throwsAsync(res.assertSessionHas('cart', { items: 4 }), { instanceOf: AssertionError, message: /Expected the session's "cart" to be \{"items":4\}/ })
  await t.throwsAsync(res.assertSessionHas('missing'), { instanceOf: AssertionError })
  await t.throwsAsync(res.assertCookie('nope'), { instanceOf: AssertionError })
})
