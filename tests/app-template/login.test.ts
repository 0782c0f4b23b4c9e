import { fileURLToPath } from 'node:url'
import test from 'ava'
import { runWithApp } from '../../core/index.ts'
import { createTestApp, refreshDatabase, TestClient } from '../../core/testing/index.ts'
import seed from '../../app-template/database/seeders/index.ts'
import { User } from '../../app-template/app/models/user.ts'

const root = fileURLToPath(new URL('../../app-template/', import.meta.url))

async function seededApp(t: { teardown(fn: () => unknown): void }) {
  const app = await createTestApp({ root })
  t.teardown(() => app.close())
  await refreshDatabase(app)
  await runWithApp(app, () => seed())
  return app
}

test('POST /login with JSON: 200 with the user (no password hash), then the session knows them', async (t) => {
  const client = new TestClient(await seededApp(t))
  await client.get('/')
  const res = await client.json('POST', '/login', { email: 'test@example.com', password: 'password' })
  t.is(res.status, 200)
  const { user } = await res.json()
  t.is(user.email, 'test@example.com')
  t.false('password' in user)
  const home = await client.get('/', { accept: 'text/html' })
  t.regex(await home.text(), /Welcome back, Test User\./)
})

test('bad credentials are 422 with errors.email; invalid input is 422 too; never a 500', async (t) => {
  const client = new TestClient(await seededApp(t))
  await client.get('/')
  const wrong = await client.json('POST', '/login', { email: 'test@example.com', password: 'nope' })
  t.is(wrong.status, 422)
  t.deepEqual((await wrong.json()).errors, { email: ['These credentials do not match our records.'] })
  const unknown = await client.json('POST', '/login', { email: 'nobody@example.com', password: 'password' })
  t.is(unknown.status, 422)
  const invalid = await client.json('POST', '/login', { email: 'not-an-email', password: '' })
  t.is(invalid.status, 422)
  t.truthy((await invalid.json()).errors.email)
  const weird = await client.json('POST', '/login', { email: { $ne: 1 }, password: ['x'] })
  t.is(weird.status, 422)
})

test('a form login redirects home; a failed form login redirects back to /login with the error flashed', async (t) => {
  const client = new TestClient(await seededApp(t))
  await client.get('/login', { accept: 'text/html' })
  const form = (email: string, password: string) =>
    client.post('/login', new URLSearchParams({ email, password, _token: client.cookie('XSRF-TOKEN')! }).toString(), {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'text/html',
    })
  const failed = await form('test@example.com', 'nope')
  t.is(failed.status, 302)
  t.is(failed.header('location'), '/login')
  const page = await (await client.get('/login', { accept: 'text/html' })).text()
  t.regex(page, /These credentials do not match our records\./)
  t.regex(page, /value="test@example.com"/)
  const ok = await form('test@example.com', 'password')
  t.is(ok.status, 302)
  t.is(ok.header('location'), '/')
  const guest = await client.get('/login', { accept: 'text/html' })
  t.is(guest.status, 302, 'a logged-in user is sent away from the login page')
})

test('login regenerates the session id; logout forgets the user', async (t) => {
  const client = new TestClient(await seededApp(t))
  await client.get('/')
  const before = client.cookies.get('kiln_session')!.value
  await client.json('POST', '/login', { email: 'test@example.com', password: 'password' })
  t.not(client.cookies.get('kiln_session')!.value, before)
  const out = await client.json('POST', '/logout')
  t.is(out.status, 200)
  const again = await client.json('POST', '/logout')
  t.is(again.status, 401)
  t.deepEqual(await again.json(), { message: 'Unauthenticated.' })
})

test('passwords are stored as salted scrypt hashes', async (t) => {
  const app = await seededApp(t)
  const user = (await runWithApp(app, () => User.query().where('email', '=', 'test@example.com').first()))!
  t.regex(user.password, /^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/)
  t.true(await user.verifyPassword('password'))
  t.false(await user.verifyPassword('Password'))
})

test('login rotates the CSRF token: a token read before login is refused after it, the new one works', async (t) => {
  const client = new TestClient(await seededApp(t))
  await client.get('/')
  const before = client.cookie('XSRF-TOKEN')!
  await client.json('POST', '/login', { email: 'test@example.com', password: 'password' })
  const after = client.cookie('XSRF-TOKEN')!
  t.not(after, before)
  const stale = await client.withoutCsrf().json('POST', '/logout', undefined, { 'x-xsrf-token': before })
  t.is(stale.status, 419)
  const fresh = await client.json('POST', '/logout', undefined, { 'x-xsrf-token': after })
  t.is(fresh.status, 200)
})

test('a failed form login keeps the email to refill the form, but never an oversized one', async (t) => {
  const app = await seededApp(t)
  const client = new TestClient(app)
  await client.get('/login', { accept: 'text/html' })
  const huge = `${'a'.repeat(900_000)}@example.com`
  const failed = await client.post('/login', new URLSearchParams({ email: huge, password: 'x', _token: client.cookie('XSRF-TOKEN')! }).toString(), {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'text/html',
  })
  t.is(failed.status, 302)
  const page = await (await client.get('/login', { accept: 'text/html' })).text()
  t.regex(page, /These credentials do not match our records\.|The email must be a valid email address\./)
  t.false(page.includes('aaaaaaaaaa'), 'the 900 KB email is not flashed back')
  const store = app.service('session.stores').connection()
  for (const key of await store.getKeys()) t.true(JSON.stringify(await store.getItem(key)).length < 10_000, 'no session record holds the oversized input')
})
