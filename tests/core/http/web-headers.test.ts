import test, { type ExecutionContext } from 'ava'
import { createApp, runWithApp, type Application } from '../../../core/index.ts'
import { TestClient } from '../../../core/testing/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { Author, databaseApp } from '../../fixtures/database.ts'

/** An app with a session guard `web` (and `admin`) over authors, and a few `web` routes. */
async function authApp(t: ExecutionContext): Promise<Application> {
  const app = await databaseApp(t, 'sqlite')
  app.config.set('auth.providers.authors', { driver: 'model', model: () => Author })
  app.config.set('auth.guards.web', { driver: 'session', provider: 'authors' })
  app.config.set('auth.guards.admin', { driver: 'session', provider: 'authors' })
  const author = await runWithApp(app, () => Author.create({ name: 'Ada' }))
  app.router.group({ middleware: ['web'] }, () => {
    app.router.get('/', () => '<p>home</p>')
    app.router.get('/dashboard', () => '<p>secret</p>').middleware(['auth'])
    app.router.get('/feed.json', () => ({ items: [] }))
    app.router.get('/cached', ({ response }) => {
      response.headers.set('cache-control', 'private, max-age=60')
      return '<p>cached on purpose</p>'
    })
    app.router.post('/login', async ({ auth }) => {
      await auth.login(author)
      return { ok: true }
    })
    app.router.post('/login-admin', async ({ auth }) => {
      await auth.login(author, 'admin')
      return { ok: true }
    })
    app.router.post('/logout', async ({ auth }) => {
      await auth.logout()
      return { ok: true }
    })
  })
  return app
}

const framing = (t: ExecutionContext, res: { header(name: string): string | null }, what: string) => {
  t.is(res.header('x-frame-options'), 'SAMEORIGIN', what)
  t.is(res.header('content-security-policy'), "frame-ancestors 'self'", what)
  t.is(res.header('x-content-type-options'), 'nosniff', what)
}

test("a guest's pages get the framing policy and nosniff, and no Cache-Control (they cache as before)", async (t) => {
  const app = await authApp(t)
  const client = new TestClient(app)
  const home = await client.get('/', { accept: 'text/html' })
  t.is(home.status, 200)
  framing(t, home, 'a page')
  t.is(home.header('cache-control'), null)
  framing(t, await client.get('/feed.json'), 'JSON')
  // Errors rendered inside the group carry them too.
  const refused = await client.withoutCsrf().post('/login', {}, { accept: 'application/json' })
  t.is(refused.status, 419)
  framing(t, refused, 'a 419')
  t.is(refused.header('cache-control'), null)
})

test("a logged-in user's answers are private, no-store (unless the handler chose), until logout", async (t) => {
  const app = await authApp(t)
  const client = new TestClient(app)
  await client.get('/')
  const login = await client.json('POST', '/login')
  t.is(login.status, 200)
  t.is(login.header('cache-control'), 'private, no-store', 'the login answer itself')
  for (const path of ['/', '/dashboard', '/feed.json']) {
    const res = await client.get(path)
    t.is(res.status, 200, path)
    t.is(res.header('cache-control'), 'private, no-store', path)
    framing(t, res, path)
  }
  t.is((await client.get('/cached')).header('cache-control'), 'private, max-age=60', "a handler's own Cache-Control is kept")
  await client.json('POST', '/logout')
  t.is((await client.get('/')).header('cache-control'), null, 'a guest again')
})

test('a user in the session under another guard than the default also makes answers private', async (t) => {
  const app = await authApp(t)
  const client = new TestClient(app)
  await client.get('/')
  t.is((await client.json('POST', '/login-admin')).status, 200)
  const home = await client.get('/')
  t.is(home.header('cache-control'), 'private, no-store')
})

test('a Content-Security-Policy the app sends gets frame-ancestors added (one header, nonce kept); its own frame-ancestors wins', async (t) => {
  const app = await createApp({ root: tempApp({ 'public/app.css': 'body{}' }), env: { APP_ENV: 'test' }, config: { session: { driver: 'memory' } } })
  t.teardown(() => app.close())
  const nonce = "default-src 'self'; script-src 'nonce-r4nd0m'"
  app.middleware.alias('csp', (ctx, next) => {
    ctx.response.headers.set('content-security-policy', nonce)
    return next()
  })
  app.router.group({ middleware: ['web'] }, () => {
    app.router.get('/queued', () => '<p>x</p>').middleware(['csp'])
    app.router.get('/returned', () => new Response('<p>x</p>', { headers: { 'content-type': 'text/html', 'content-security-policy': `${nonce};` } }))
    app.router.get(
      '/embeddable',
      () =>
        new Response('<p>x</p>', {
          headers: { 'content-security-policy': 'frame-ancestors https://partner.example', 'x-frame-options': 'ALLOW-FROM https://partner.example' },
        }),
    )
    app.router.get('/away', () => Response.redirect('https://example.com/', 302))
  })
  const queued = await app.request('/queued')
  t.is(queued.headers.get('content-security-policy'), `${nonce}; frame-ancestors 'self'`)
  t.is(queued.headers.get('x-frame-options'), 'SAMEORIGIN')
  t.is((await app.request('/returned')).headers.get('content-security-policy'), `${nonce}; frame-ancestors 'self'`)
  const embeddable = await app.request('/embeddable')
  t.is(embeddable.headers.get('content-security-policy'), 'frame-ancestors https://partner.example')
  t.is(embeddable.headers.get('x-frame-options'), 'ALLOW-FROM https://partner.example')
  const away = await app.request('/away')
  t.is(away.status, 302, 'a response with immutable headers is copied')
  t.is(away.headers.get('location'), 'https://example.com/')
  t.is(away.headers.get('x-frame-options'), 'SAMEORIGIN')

  const file = await app.request('/app.css')
  t.is(file.status, 200)
  t.is(file.headers.get('cache-control'), 'public, max-age=0, must-revalidate', 'static files are untouched')
  t.is(file.headers.get('x-frame-options'), null)
})

test("http.frame_options: deny sends DENY and frame-ancestors 'none'; false sends no framing policy (nosniff stays)", async (t) => {
  for (const [option, header, policy] of [
    ['deny', 'DENY', "frame-ancestors 'none'"],
    [false, null, null],
  ] as const) {
    const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' }, config: { session: { driver: 'memory' }, http: { frame_options: option } } })
    t.teardown(() => app.close())
    app.router.group({ middleware: ['web'] }, () => app.router.get('/', () => '<p>x</p>'))
    const res = await app.request('/')
    t.is(res.headers.get('x-frame-options'), header)
    t.is(res.headers.get('content-security-policy'), policy)
    t.is(res.headers.get('x-content-type-options'), 'nosniff')
  }
  await t.throwsAsync(createApp({ root: tempApp(), env: { APP_ENV: 'test' }, config: { http: { frame_options: 'allow' } } }), { message: /frame_options/ })
})
