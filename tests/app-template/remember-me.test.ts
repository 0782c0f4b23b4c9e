import test from 'ava'
import { TestClient } from '../../core/testing/index.ts'
import { starterApp } from '../fixtures/starter-app.ts'

const greeting = async (client: TestClient) => /Welcome back, Test User\./.test(await (await client.get('/', { accept: 'text/html' })).text())

async function formLogin(client: TestClient, remember: boolean) {
  await client.get('/login', { accept: 'text/html' })
  const fields: Record<string, string> = { email: 'test@example.com', password: 'password', _token: client.cookie('XSRF-TOKEN')! }
  if (remember) fields.remember = 'on'
  const res = await client.post('/login', new URLSearchParams(fields).toString(), { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' })
  if (res.status !== 302 || res.header('location') !== '/') throw new Error(`login answered ${res.status} ${res.header('location')}`)
}

test('the login page has a "Remember me" checkbox, and its button stands below the password field', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const html = await (await new TestClient(app).get('/login', { accept: 'text/html' })).text()
  t.regex(html, /<input type="checkbox" name="remember"[^>]*> Remember me/)
  t.regex(html, /id="password"[\s\S]*name="remember"[\s\S]*<button type="submit">Log in<\/button>/)
  t.regex(html, /href="\/register"/)
})

test('"Remember me" keeps a user logged in after the session is lost (expired, store flushed); without it they must log in again', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const remembered = new TestClient(app)
  await formLogin(remembered, true)
  const cookie = remembered.cookies.get('remember_web')!.value
  t.truthy(cookie)
  const rows = await (await app.service('db').kysely()).selectFrom('remember_tokens').selectAll().execute()
  t.is(rows.length, 1)
  t.false(cookie.includes(String(rows[0]!.token_hash)))

  remembered.cookies.delete('kiln_session')
  t.true(await greeting(remembered), 'logged back in from the remember cookie')
  t.not(remembered.cookies.get('remember_web')!.value, cookie, 'and the cookie was rotated')

  const forgotten = new TestClient(app)
  await formLogin(forgotten, false)
  t.false(forgotten.cookies.has('remember_web'))
  forgotten.cookies.delete('kiln_session')
  t.false(await greeting(forgotten))
})

test('JSON logins take remember: true; logging out clears the cookie and its token', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const client = new TestClient(app)
  await client.get('/')
  t.is((await client.json('POST', '/login', { email: 'test@example.com', password: 'password', remember: true })).status, 200)
  const cookie = client.cookies.get('remember_web')!.value
  t.is((await client.json('POST', '/logout')).status, 200)
  t.false(client.cookies.has('remember_web'))
  t.is((await (await app.service('db').kysely()).selectFrom('remember_tokens').selectAll().execute()).length, 0)
  const copy = new TestClient(app)
  copy.cookies.set('remember_web', { value: cookie, path: '/' })
  t.false(await greeting(copy), 'a copy of the cookie taken before logout is worthless')
})
