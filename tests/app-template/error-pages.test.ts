import test from 'ava'
import { TestClient } from '../../core/testing/index.ts'
import { starterApp } from '../fixtures/starter-app.ts'

test('a missing page is a 404 in the app layout with a link home; JSON clients still get JSON', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const client = new TestClient(app)
  const page = await client.get('/no-such-page', { accept: 'text/html' })
  t.is(page.status, 404)
  t.regex(page.header('content-type') ?? '', /text\/html/)
  const html = await page.text()
  t.regex(html, /<link rel="stylesheet" href="\/app.css">/, 'the layout')
  t.regex(html, /<header/, 'with the nav')
  t.regex(html, /<h1>Page not found<\/h1>/)
  t.regex(html, /<a class="button" href="\/" data-test="home-link">/)
  const api = await client.get('/no-such-page', { accept: 'application/json' })
  t.is(api.status, 404)
  t.deepEqual(await api.json(), { message: 'Not found.' })
})

test('a 404 thrown inside a web route shows the logged-in user in the nav', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const client = new TestClient(app)
  await client.get('/')
  await client.json('POST', '/login', { email: 'test@example.com', password: 'password' })
  const page = await client.get('/profile/avatar', { accept: 'text/html' })
  t.is(page.status, 404)
  const html = await page.text()
  t.regex(html, /<h1>Page not found<\/h1>/)
  t.regex(html, /data-test="who">Test User</)
})

test('a server error is a 500 in the app layout that says nothing of the cause; other 4xx use errors/4xx', async (t) => {
  const app = await starterApp(t, 'sqlite', { APP_DEBUG: 'false' })
  app.router.group({ middleware: ['web'] }, () => {
    app.router.get('/boom', () => {
      throw new Error('database password is hunter2')
    })
    app.router.get('/forbidden', () => {
      throw Object.assign(new Error('You may not.'), { status: 403 })
    })
  })
  const client = new TestClient(app)
  const page = await client.get('/boom', { accept: 'text/html' })
  t.is(page.status, 500)
  const html = await page.text()
  t.regex(html, /<h1>Something went wrong<\/h1>/)
  t.regex(html, /href="\/" data-test="home-link"/)
  t.notRegex(html, /hunter2/)
  const json = await client.get('/boom', { accept: 'application/json' })
  t.deepEqual(await json.json(), { message: 'Server error.' })
  const forbidden = await client.get('/forbidden', { accept: 'text/html' })
  t.is(forbidden.status, 403)
  t.regex(await forbidden.text(), /<p class="status">403<\/p>\s*<h1>You may not\.<\/h1>/)
})
