import test from 'ava'
import { runWithApp } from '../../../core/index.ts'
import { TestClient } from '../../../core/testing/index.ts'
import { Author, databaseApp } from '../../fixtures/database.ts'

test('unauthenticated: API/JSON gets 401 JSON; a navigation is redirected to the login route when there is one, else a 401 page', async (t) => {
  const app = await databaseApp(t, 'sqlite')
  app.router.group({ middleware: ['web'] }, () => app.router.get('/dashboard', () => 'secret').middleware(['auth']))
  app.router.group({ middleware: ['api'] }, () => app.router.get('/api/me', () => 'secret').middleware(['auth']))
  const client = new TestClient(app)
  const api = await client.get('/api/me', { accept: 'application/json' })
  t.is(api.status, 401)
  t.deepEqual(await api.json(), { message: 'Unauthenticated.' })
  const page = await client.get('/dashboard', { accept: 'text/html' })
  t.is(page.status, 401)
  t.regex(await page.text(), /<h1>401/)
  app.router.group({ middleware: ['web'] }, () => app.router.get('/login', () => 'login form').name('login'))
  const redirected = await client.get('/dashboard', { accept: 'text/html' })
  t.is(redirected.status, 302)
  t.is(redirected.header('location'), '/login')
})

test('auth:a,b tries guards in order; the session guard logs in and out through ctx.auth', async (t) => {
  const app = await databaseApp(t, 'sqlite')
  app.config.set('auth.providers.authors', { driver: 'model', model: () => Author })
  app.config.set('auth.guards.web', { driver: 'session', provider: 'authors' })
  app.config.set('auth.guards.admin', { driver: 'session', provider: 'authors' })
  const author = await runWithApp(app, () => Author.create({ name: 'Ada' }))
  app.router.group({ middleware: ['web'] }, () => {
    app.router.post('/login-as-admin', async ({ auth }) => {
      await auth.login(author, 'admin')
      return { ok: true }
    })
    app.router.get('/either', ({ request, auth }) => ({ name: request.user<Author>()!.name, via: auth.guardName })).middleware(['auth:web,admin'])
    app.router.post('/logout-admin', async ({ auth }) => {
      await auth.logout('admin')
      return { ok: true }
    })
  })
  const client = new TestClient(app)
  t.is((await client.json('GET', '/either')).status, 401)
  await client.get('/either')
  t.is((await client.json('POST', '/login-as-admin')).status, 200)
  t.deepEqual(await (await client.json('GET', '/either')).json(), { name: 'Ada', via: 'admin' })
  await client.json('POST', '/logout-admin')
  t.is((await client.json('GET', '/either')).status, 401)
})
