import test from 'ava'
import type { Application } from '../../core/index.ts'
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

/** Every rotation an hour in the past, beyond the grace in which a replaced token still logs in. */
async function pastTheGrace(app: Application) {
  await (
    await app.service('db').kysely()
  )
    .updateTable('remember_tokens')
    .set({ rotated_at: Math.floor(Date.now() / 1000) - 3600 })
    .where('rotated_at', 'is not', null)
    .execute()
}

const rememberRows = async (app: Application) => (await (await app.service('db').kysely()).selectFrom('remember_tokens').selectAll().execute()).length

/** A browser without a session holding a copy of a remember cookie, as a thief would. */
function holding(app: Application, cookie: string) {
  const client = new TestClient(app)
  client.cookies.set('remember_web', { value: cookie, path: '/' })
  return client
}

for (const dialect of ['sqlite', 'pgsql'] as const) {
  test(`${dialect}: a stolen remember cookie used first by the thief is caught when the owner's browser replays its old token: every remembered login ends, the thief's session too`, async (t) => {
    const app = await starterApp(t, dialect)
    const owner = new TestClient(app)
    await formLogin(owner, true)
    const phone = new TestClient(app)
    await formLogin(phone, true)
    const stolen = owner.cookies.get('remember_web')!.value

    const thief = holding(app, stolen)
    t.true(await greeting(thief), 'the copy logs the thief in once')
    t.not(thief.cookies.get('remember_web')!.value, stolen, 'and its token is rotated')

    await pastTheGrace(app)
    owner.cookies.delete('kiln_session')
    t.false(await greeting(owner), "the owner's old token, replayed after the grace, is refused")
    t.false(owner.cookies.has('remember_web'))
    t.is(await rememberRows(app), 0, 'every remembered login of the user is forgotten')
    t.false(await greeting(thief), "the thief's session ends on its next request")
    t.false(await greeting(phone), 'so does every session that came with a remembered login')

    await formLogin(owner, false)
    t.true(await greeting(owner), 'the owner logs in again with the password')
  })

  test(`${dialect}: a thief replaying a remember cookie the owner already used is caught: every remembered login ends, the owner's session from it too`, async (t) => {
    const app = await starterApp(t, dialect)
    const owner = new TestClient(app)
    await formLogin(owner, true)
    const stolen = owner.cookies.get('remember_web')!.value
    owner.cookies.delete('kiln_session')
    t.true(await greeting(owner))
    t.not(owner.cookies.get('remember_web')!.value, stolen)

    await pastTheGrace(app)
    t.false(await greeting(holding(app, stolen)))
    t.is(await rememberRows(app), 0)
    t.false(await greeting(owner), "the owner's remembered session ends: the thief gets nothing and the owner logs in again")
  })

  test(`${dialect}: a browser restoring its tabs sends the same remember cookie in parallel: every tab is logged in, no theft, the cookie keeps working`, async (t) => {
    const app = await starterApp(t, dialect)
    const browser = new TestClient(app)
    await formLogin(browser, true)
    const first = browser.cookies.get('remember_web')!.value
    browser.cookies.delete('kiln_session')
    const tabs = await Promise.all(Array.from({ length: 5 }, () => browser.get('/', { accept: 'text/html' })))
    for (const tab of tabs) t.regex(await tab.text(), /Welcome back, Test User\./)
    t.is(tabs.filter((tab) => tab.cookies.has('remember_web')).length, 1, 'one tab rotated the token; the others did not set the cookie')
    t.not(browser.cookies.get('remember_web')!.value, first)
    t.is(await rememberRows(app), 1)
    t.true(await greeting(browser))

    browser.cookies.delete('kiln_session')
    t.true(await greeting(browser), 'the rotated cookie logs in again later')
    t.is(await rememberRows(app), 1)
  })
}
