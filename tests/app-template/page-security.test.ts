import test from 'ava'
import { TestClient } from '../../core/testing/index.ts'
import { starterApp } from '../fixtures/starter-app.ts'

const html = { accept: 'text/html' }
const formToken = (page: string) => /name="_token" value="([^"]+)"/.exec(page)?.[1] ?? ''
const metaToken = (page: string) => /<meta name="csrf-token" content="([^"]+)">/.exec(page)?.[1] ?? ''

test("the starter: a guest's pages may be cached and framed by the app only; a logged-in user's pages are private, no-store", async (t) => {
  const client = new TestClient(await starterApp(t, 'sqlite'))
  const login = await client.get('/login', html)
  t.is(login.status, 200)
  t.is(login.header('x-frame-options'), 'SAMEORIGIN')
  t.is(login.header('content-security-policy'), "frame-ancestors 'self'")
  t.is(login.header('x-content-type-options'), 'nosniff')
  t.is(login.header('cache-control'), null)
  t.is((await client.get('/app.css')).header('cache-control'), 'public, max-age=0, must-revalidate', 'static files as before')

  // The login form posts the (masked) token the page carries.
  const loggedIn = await client.post(
    '/login',
    new URLSearchParams({ email: 'test@example.com', password: 'password', _token: formToken(await login.text()) }).toString(),
    {
      'content-type': 'application/x-www-form-urlencoded',
      ...html,
    },
  )
  t.is(loggedIn.status, 302)
  for (const path of ['/', '/todos?filter=abc', '/profile', '/tokens']) {
    const page = await client.get(path, html)
    t.is(page.status, 200, path)
    t.is(page.header('cache-control'), 'private, no-store', path)
    t.is(page.header('x-frame-options'), 'SAMEORIGIN', path)
  }
})

test("the starter: each page carries its own masked CSRF token (BREACH); each one, and the cookie's plain one, is accepted; a tampered one is 419", async (t) => {
  const client = new TestClient(await starterApp(t, 'sqlite'))
  const first = metaToken(await (await client.get('/', html)).text())
  const second = metaToken(await (await client.get('/', html)).text())
  t.regex(first, /^[A-Za-z0-9_-]{107}$/)
  t.not(first, second, 'two renders of the same page in one session')
  const plain = client.cookie('XSRF-TOKEN')!
  t.false(first.includes(plain))
  const attempt = (token: string) => client.withoutCsrf().json('POST', '/login', { email: 'test@example.com', password: 'wrong' }, { 'x-csrf-token': token })
  for (const token of [first, second, plain]) t.is((await attempt(token)).status, 422, 'past the CSRF check: the credentials are what is wrong')
  // Another character in the middle (where all six bits are data): the unmasked token differs.
  const tampered = `${first.slice(0, 60)}${first[60] === 'A' ? 'g' : 'A'}${first.slice(61)}`
  const refused = await attempt(tampered)
  t.is(refused.status, 419)
  t.deepEqual(await refused.json(), { message: 'CSRF token mismatch.' })
})
